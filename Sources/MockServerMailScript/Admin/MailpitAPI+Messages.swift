import Foundation
import MockServerCore
import MockServerMail
import MockServerScript

extension MailpitAPI {
    /// `GET /api/v1/messages` and `GET /api/v1/search`: the messages (those `search` finds, when
    /// given), newest first, from `start` on, at most `limit` of them, with the mailbox's counts.
    func list(_ query: [String: String], search: MailpitSearch?) throws(MailpitFailure) -> ScriptVocabulary.AdminRoute.Answer {
        let start = try Self.wholeNumber(query, "start", default: 0)
        let limit = try Self.wholeNumber(query, "limit", default: Self.defaultLimit)
        let all = store.transactions
        let read = readMarks(keeping: all)
        let newestFirst = all.reversed()
        let found = search.map { search in newestFirst.filter { search.matches($0, isRead: read.contains($0.id)) } } ?? Array(newestFirst)
        let page = found.dropFirst(start).prefix(limit)
        let unread = all.count - read.count
        return .init(json: .object([
            "total": .number(all.count), "unread": .number(unread), "count": .number(page.count),
            "messages_count": .number(found.count),
            "messages_unread": .number(found.filter { !read.contains($0.id) }.count),
            "start": .number(start), "tags": .array([]),
            "messages": .array(page.map { MailpitJSON.summary($0, isRead: read.contains($0.id)) }),
        ]))
    }

    /// `DELETE /api/v1/messages`: the messages of `{"IDs": […]}`, or every message when the body
    /// is empty or names none (as Mailpit does).
    func delete(body: [UInt8]) throws(MailpitFailure) -> ScriptVocabulary.AdminRoute.Answer {
        let ids = try Self.ids(in: body)
        if ids.isEmpty {
            // The read marks of the messages gone are forgotten by the next list.
            store.purge()
        } else {
            store.remove(ids: ids)
            mark(ids, read: false)
        }
        return Self.text("ok")
    }

    /// `DELETE /api/v1/search?query=`: the messages the search finds.
    func deleteFound(_ search: MailpitSearch) throws(MailpitFailure) -> ScriptVocabulary.AdminRoute.Answer {
        let all = store.transactions
        let read = readMarks(keeping: all)
        let ids = all.filter { search.matches($0, isRead: read.contains($0.id)) }.map(\.id)
        store.remove(ids: ids)
        mark(ids, read: false)
        return Self.text("ok")
    }

    /// `PUT /api/v1/messages`: `{"IDs": […], "Read": true|false}` marks those messages (every
    /// message without IDs) read or unread.
    func markRead(body: [UInt8]) throws(MailpitFailure) -> ScriptVocabulary.AdminRoute.Answer {
        let members = try Self.object(body, example: #"{"IDs": ["…"], "Read": true}"#)
        var read = false
        if let flag = members["read"] {
            guard case .bool(let value) = flag.kind else { throw MailpitFailure(400, "Read must be true or false, not \(flag.typeName)") }
            read = value
        }
        let ids = try Self.ids(in: body)
        // Only kept messages get a mark: a body of made-up IDs adds nothing to hold.
        mark(ids.isEmpty ? store.transactions.map(\.id) : ids.filter { store.transaction(id: $0) != nil }, read: read)
        return Self.text("ok")
    }

    /// `GET /api/v1/message/{ID}` and what follows it: the whole message, `/raw`, `/headers` or
    /// `/part/{PartID}`. `{ID}` may be `latest`: the newest message (that `query` finds, when given).
    func message(path: String, query: [String: String]) throws(MailpitFailure) -> ScriptVocabulary.AdminRoute.Answer {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let transaction = try self.transaction(segments[0], query: query)
        switch segments.count {
        case 1:
            mark([transaction.id], read: true)
            return .init(json: MailpitJSON.message(transaction))
        case 2 where segments[1] == "raw":
            return .init(body: Array(transaction.raw), contentType: "text/plain; charset=utf-8")
        case 2 where segments[1] == "headers":
            return .init(json: MailpitJSON.headers(transaction.message))
        case 3 where segments[1] == "part":
            let message = transaction.message
            guard let index = message.tree.part(section: segments[2]), let content = message.content(ofPart: segments[2]) else {
                throw MailpitFailure(404, "message \(transaction.id) has no part \(segments[2])")
            }
            // A text part keeps its charset, so that a browser reads ISO-8859-x text as written.
            let part = message.tree.parts[index]
            // Only a charset's name characters: the value is the sender's, and goes in a header.
            let name = part.contentType.parameters["charset"].map { $0.filter { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) } } ?? ""
            let charset = name.isEmpty ? "" : "; charset=" + name
            let type = part.mediaType.filter { $0.isASCII && ($0.isLetter || $0.isNumber || "!#$&^_.+-/".contains($0)) }
            return .init(body: Array(content), contentType: type.isEmpty ? "application/octet-stream" : type + (type.hasPrefix("text/") ? charset : ""))
        default:
            throw MailpitFailure(404, "no route GET /api/v1/message/\(path) (after the ID: nothing, /raw, /headers or /part/PARTID)")
        }
    }

    /// The message `id` names (`latest`: the newest, of those `query` finds when given).
    private func transaction(_ id: String, query: [String: String]) throws(MailpitFailure) -> MailTransaction {
        guard id == "latest" else {
            guard let transaction = store.transaction(id: id) else { throw MailpitFailure(404, "no message with ID \(id)") }
            return transaction
        }
        let all = store.transactions
        let text = query["query"]?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !text.isEmpty else {
            guard let newest = all.last else { throw MailpitFailure(404, "no message: the mailbox is empty") }
            return newest
        }
        let search = MailpitSearch(text), read = readMarks(keeping: all)
        guard let newest = all.last(where: { search.matches($0, isRead: read.contains($0.id)) }) else {
            throw MailpitFailure(404, "no message matches \(text) (of \(all.count))")
        }
        return newest
    }

    // MARK: Reading parameters

    /// The search of the `query` parameter.
    static func search(in query: [String: String]) throws(MailpitFailure) -> MailpitSearch {
        let text = query["query"]?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !text.isEmpty else { throw MailpitFailure(400, "no search query: give query=WORDS (to:ADDRESS, from:ADDRESS, subject:TEXT, words)") }
        return MailpitSearch(text)
    }

    /// Query parameter `name` as a whole number of at least 0; `defaultValue` when it is absent.
    static func wholeNumber(_ query: [String: String], _ name: String, default defaultValue: Int) throws(MailpitFailure) -> Int {
        guard let text = query[name] else { return defaultValue }
        guard let number = Int(text), number >= 0 else { throw MailpitFailure(400, "\(name) must be a whole number, not \(text)") }
        return number
    }

    /// The members of a JSON object body by lowercased name (Mailpit reads names in any case);
    /// an empty body is an empty object.
    static func object(_ body: [UInt8], example: String) throws(MailpitFailure) -> [String: JSONNode] {
        if body.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return [:] }
        let root: JSONNode
        do {
            root = try JSONReader.parse(body, options: .strict)
        } catch {
            throw MailpitFailure(400, "the body is not JSON (\(error)); send \(example)")
        }
        guard case .object(let members) = root.kind else { throw MailpitFailure(400, "the body must be a JSON object like \(example), not \(root.typeName)") }
        return Dictionary(members.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
    }

    /// The `IDs` of a JSON body: strings; none for an empty body or one without `IDs`.
    static func ids(in body: [UInt8]) throws(MailpitFailure) -> [String] {
        let example = #"{"IDs": ["…"]}"#
        guard let node = try object(body, example: example)["ids"] else { return [] }
        if case .null = node.kind { return [] }
        guard case .array(let items) = node.kind else { throw MailpitFailure(400, "IDs must be an array of message IDs, not \(node.typeName)") }
        return try items.map { item throws(MailpitFailure) in
            guard let id = item.stringValue else { throw MailpitFailure(400, "IDs must hold message IDs as strings, not \(item.typeName)") }
            return id
        }
    }
}
