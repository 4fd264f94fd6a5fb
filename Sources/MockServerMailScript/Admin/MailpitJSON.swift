import Foundation
import MockServerCore
import MockServerMail

/// Messages as Mailpit's API v1 writes them: the list's summaries (`MessageSummary`), a whole
/// message (`Message`), its attachments and headers, with Mailpit's field names and times.
enum MailpitJSON {
    /// `date` as Mailpit writes times (RFC 3339, with milliseconds), in UTC: `2026-11-29T13:20:43.125Z`.
    static func time(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let time = UTCTime(secondsSince1970: seconds)
        func pad(_ value: some BinaryInteger, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(time.year, 4))-\(pad(time.month, 2))-\(pad(time.day, 2))T\(pad(time.hour, 2)):\(pad(time.minute, 2)):\(pad(time.second, 2))"
            + ".\(pad(milliseconds - seconds * 1000, 3))Z"
    }

    /// One mailbox as Go's `mail.Address` is written: `{"Name": …, "Address": …}`.
    static func address(_ address: MailMessage.Address) -> JSONNode {
        .object(["Name": .string(address.name), "Address": .string(address.address)])
    }

    /// The mailboxes of an address field as Mailpit shows them: `to`, `from`, `cc`, `reply-to`
    /// from the message, `bcc` from a `Bcc` field and the envelope's blind copies, `addressed`
    /// all of these.
    static func addresses(_ field: String, of transaction: MailTransaction) -> [MailMessage.Address] {
        let message = transaction.message
        switch field {
        case "from": return message.from
        case "to": return message.to
        case "cc": return message.cc
        case "reply-to": return message.headers.values("reply-to").flatMap(MIMEAddressList.parse)
        case "bcc":
            let named = message.bcc
            return named + transaction.blindCopies.filter { copy in !named.contains { MailboxAddress($0.address) == MailboxAddress(copy) } }
                .map { MailMessage.Address(address: $0) }
        default: return ["from", "to", "cc", "bcc", "reply-to"].flatMap { addresses($0, of: transaction) }
        }
    }

    /// The message's parts besides its bodies, as Mailpit sorts them: those marked `inline` (the
    /// images an HTML body shows) and the others (attachments).
    static func parts(of message: MailMessage) -> (inline: [MailMessage.Attachment], attachments: [MailMessage.Attachment]) {
        let inline = message.attachments.filter { $0.disposition == "inline" }
        return (inline, message.attachments.filter { $0.disposition != "inline" })
    }

    /// The user the message's SMTP session logged in as; empty without AUTH (or for a seed file).
    static func username(of transaction: MailTransaction) -> String {
        if case .smtp(_, _, _, let user?) = transaction.envelope.origin { return user }
        return ""
    }

    /// The fields a summary and a whole message share.
    private static func common(_ transaction: MailTransaction) -> [String: JSONNode] {
        let message = transaction.message
        func list(_ field: String) -> JSONNode { .array(addresses(field, of: transaction).map(address)) }
        return [
            "ID": .string(transaction.id),
            "MessageID": .string(message.messageID ?? ""),
            "From": message.from.first.map(address) ?? .null,
            "To": list("to"), "Cc": list("cc"), "Bcc": list("bcc"), "ReplyTo": list("reply-to"),
            "Subject": .string(message.subject),
            "Username": .string(username(of: transaction)),
            "Tags": .array([]),
            "Size": .number(transaction.size),
        ]
    }

    /// A `MessageSummary`, as `GET /api/v1/messages` lists it.
    static func summary(_ transaction: MailTransaction, isRead: Bool) -> JSONNode {
        let message = transaction.message
        var fields = common(transaction)
        fields["Read"] = .bool(isRead)
        fields["Created"] = .string(time(transaction.time))
        fields["Attachments"] = .number(parts(of: message).attachments.count)
        fields["Snippet"] = .string(MailpitText.snippet(text: message.text, html: message.html))
        return .object(fields)
    }

    /// A whole `Message`, as `GET /api/v1/message/{ID}` gives it: the summary's addresses, the
    /// `Date` (the message's own, else the time received), `Text`, `HTML`, `Inline` and `Attachments`.
    static func message(_ transaction: MailTransaction) -> JSONNode {
        let message = transaction.message
        var fields = common(transaction)
        let returnPath = message.header("return-path").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "<> \t")) }
        fields["ReturnPath"] = .string(returnPath ?? transaction.envelope.sender)
        fields["Date"] = .string(time(message.date ?? transaction.time))
        fields["Text"] = .string(message.text ?? "")
        fields["HTML"] = .string(message.html ?? "")
        let parts = parts(of: message)
        fields["Inline"] = .array(parts.inline.map(attachment))
        fields["Attachments"] = .array(parts.attachments.map(attachment))
        fields["ListUnsubscribe"] = .object([
            "Header": .string(message.header("list-unsubscribe") ?? ""), "Links": .array([]), "Errors": .string(""),
            "HeaderPost": .string(message.header("list-unsubscribe-post") ?? ""),
        ])
        return .object(fields)
    }

    /// An `Attachment`: `PartID`, `FileName`, `ContentType`, `ContentID`, `Size` (decoded bytes).
    static func attachment(_ attachment: MailMessage.Attachment) -> JSONNode {
        .object([
            "PartID": .string(attachment.partID), "FileName": .string(attachment.fileName ?? ""),
            "ContentType": .string(attachment.contentType), "ContentID": .string(attachment.contentID ?? ""),
            "Size": .number(attachment.size),
        ])
    }

    /// The message's header fields as `GET /api/v1/message/{ID}/headers` gives them: each name
    /// (written as Go writes one: `Message-Id`) with its values in order, unfolded, not decoded.
    static func headers(_ message: MailMessage) -> JSONNode {
        var values: [String: [String]] = [:]
        for field in message.headers.fields { values[canonical(field.name), default: []].append(field.value) }
        return .object(values.mapValues { .array($0.map(JSONNode.string)) })
    }

    /// A header name with its first letter and each letter after a hyphen in capitals, the rest small (`Content-Type`).
    static func canonical(_ name: String) -> String {
        name.lowercased().split(separator: "-", omittingEmptySubsequences: false).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
    }
}
