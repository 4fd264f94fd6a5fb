import Foundation
import MockServerMail

/// A search in Mailpit's syntax (`GET /api/v1/search?query=`): words and quoted phrases, each a
/// condition every message found meets; `-` or `!` before one finds the messages that do not.
///
/// `to:`, `from:`, `cc:`, `bcc:` and `addressed:` (any of them) look in the addresses with their
/// names; `subject:` and `message-id:` in those fields; `is:read`, `is:unread`,
/// `has:attachment` and `has:inline` test the message; `larger:` and `smaller:` compare the size
/// (`10kb`, `2mb`, bytes); any other word is looked for in the addresses, the subject, the text (or
/// the HTML's text) and the attachments' file names. All of it ignores case, as Mailpit's does.
///
/// ```swift
/// let search = MailpitSearch("to:dana@example.net subject:\"Reset your password\" -has:attachment")
/// search.matches(transaction, isRead: false)
/// ```
struct MailpitSearch: Sendable, CustomStringConvertible {
    /// What one word of the query asks of a message.
    enum Condition: Sendable, Equatable {
        /// The named address field contains the text (`to`, `from`, `cc`, `bcc`, `reply-to`, `addressed`).
        case address(field: String, text: String)
        /// The subject contains the text.
        case subject(String)
        /// The Message-ID contains the text.
        case messageID(String)
        /// The message has been read (``MailpitAPI`` marks a message read once it is fetched).
        case read
        /// The message has attachments (parts that are not inline).
        case attachment
        /// The message has inline parts (images a body shows, say).
        case inline
        /// The size is larger than this many bytes.
        case larger(Int)
        /// The size is smaller than this many bytes.
        case smaller(Int)
        /// The search text (addresses, subject, text, file names) contains the text.
        case text(String)
    }

    /// One condition of the query, or its opposite.
    struct Term: Sendable, Equatable {
        let condition: Condition
        let excluded: Bool
    }

    /// The query as given.
    let query: String
    /// Its conditions, all of which a message meets.
    let terms: [Term]

    /// The search `query` asks for; an empty query finds every message.
    init(_ query: String) {
        self.query = query
        terms = Self.words(of: query).compactMap(Self.term)
    }

    /// `search "QUERY"`, as a wait's timeout names what it waited for.
    var description: String { "search \"\(query)\"" }

    /// The query's words: split at spaces outside double quotes, the quotes dropped (`subject:"a b"` is one word, `subject:a b`).
    static func words(of query: String) -> [String] {
        var words: [String] = [], word = "", quoted = false
        func end() {
            let trimmed = word.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { words.append(trimmed) }
            word = ""
        }
        for character in query {
            if character == "\"" {
                quoted.toggle()
            } else if character == " ", !quoted {
                end()
            } else {
                word.append(character)
            }
        }
        end()
        return words
    }

    /// The term one word asks for; nil for a word that asks for nothing (`-` alone, `to:`).
    static func term(_ word: String) -> Term? {
        var word = Substring(word)
        let excluded = word.count > 1 && (word.first == "-" || word.first == "!")
        if excluded { word = word.dropFirst() }
        let lowered = word.lowercased()
        func value(after prefix: String) -> String? {
            guard lowered.hasPrefix(prefix) else { return nil }
            return String(lowered.dropFirst(prefix.count))
        }
        let condition: Condition?
        if let field = ["to", "from", "cc", "bcc", "reply-to", "addressed"].first(where: { lowered.hasPrefix($0 + ":") }) {
            let text = String(lowered.dropFirst(field.count + 1))
            condition = text.isEmpty ? nil : .address(field: field, text: text)
        } else if let text = value(after: "subject:") {
            condition = text.isEmpty ? nil : .subject(text)
        } else if let text = value(after: "message-id:") {
            condition = text.isEmpty ? nil : .messageID(text)
        } else if lowered == "is:read" || lowered == "is:unread" {
            return Term(condition: .read, excluded: excluded != (lowered == "is:unread"))
        } else if lowered == "has:attachment" || lowered == "has:attachments" {
            condition = .attachment
        } else if lowered == "has:inline" || lowered == "has:inlines" {
            condition = .inline
        } else if let size = value(after: "larger:").flatMap(Self.bytes) {
            condition = .larger(size)
        } else if let size = value(after: "smaller:").flatMap(Self.bytes) {
            condition = .smaller(size)
        } else {
            let text = MailpitText.cleaned(lowered)
            condition = text.isEmpty ? nil : .text(text)
        }
        return condition.map { Term(condition: $0, excluded: excluded) }
    }

    /// A size as Mailpit reads one: digits, a fraction, then `k`/`kb` or `m`/`mb` (1,024 based) or nothing (bytes).
    static func bytes(_ text: String) -> Int? {
        let units: [(suffix: String, factor: Double)] = [("kb", 1024), ("k", 1024), ("mb", 1_048_576), ("m", 1_048_576), ("", 1)]
        for unit in units where text.hasSuffix(unit.suffix) {
            let number = text.dropLast(unit.suffix.count).trimmingCharacters(in: .whitespaces)
            guard let first = number.first, first.isASCII, first.isNumber, let value = Double(number), value > 0 else { return nil }
            // A size past Int's range (`larger:1e300`) is the largest there is, not a trap.
            let scaled = value * unit.factor
            guard scaled.isFinite else { return nil }
            return scaled >= Double(Int.max) ? Int.max : Int(scaled)
        }
        return nil
    }

    /// Whether `transaction` meets every term; `isRead` says whether it has been read.
    func matches(_ transaction: MailTransaction, isRead: Bool) -> Bool {
        terms.allSatisfy { term in holds(term.condition, for: transaction, isRead: isRead) != term.excluded }
    }

    private func holds(_ condition: Condition, for transaction: MailTransaction, isRead: Bool) -> Bool {
        let message = transaction.message
        switch condition {
        case .address(let field, let text):
            return MailpitJSON.addresses(field, of: transaction).contains { "\($0.name) \($0.address)".lowercased().contains(text) }
        case .subject(let text):
            return message.subject.lowercased().contains(text)
        case .messageID(let text):
            return (message.messageID ?? "").lowercased().contains(text)
        case .read:
            return isRead
        case .attachment:
            return !MailpitJSON.parts(of: message).attachments.isEmpty
        case .inline:
            return !MailpitJSON.parts(of: message).inline.isEmpty
        case .larger(let size):
            return transaction.size > size
        case .smaller(let size):
            return transaction.size < size
        case .text(let text):
            return MailpitText.searchText(of: transaction).contains(text)
        }
    }
}
