import Foundation

/// A mail message, parsed (RFC 5322 and MIME): its headers, addresses, subject, text and HTML bodies
/// and attachments, with the exact bytes it was made from.
///
/// What it gives agrees with Python's `email` package (`policy.default`) on the corpus in
/// `Tests/MockServerMailTests/Fixtures/corpus` (Docs/Mail.md lists where it differs by design). The
/// parser is bounded: at most 32 levels of nesting, 1,000 parts and 64 KiB a header field; past a
/// limit it stops descending and sets `isTruncated`, and `raw` still holds every byte. Parsing is
/// linear in the message's size; the attachments' bytes are decoded only when asked for.
package struct MailMessage: Sendable {
    /// The message's bytes, exactly as given.
    package let raw: Data
    /// The parsed parts (package: for the mail server and its control API).
    package let tree: MIMETree
    /// The text of the text body (the first `text/plain` part not marked as an attachment), decoded
    /// from its transfer encoding and charset; nil when there is none.
    package let text: String?
    /// The HTML of the HTML body (the first `text/html` part not marked as an attachment), decoded;
    /// nil when there is none.
    package let html: String?
    /// The parts that are neither body, in order: attachments, inline images, attached messages.
    package let attachments: [Attachment]

    /// Parses `raw`. Never fails: what cannot be read is left as it is.
    package init(_ raw: Data) {
        self.init(raw, limits: MIMELimits())
    }

    /// Parses `raw` within `limits`.
    package init(_ raw: Data, limits: MIMELimits) {
        self.raw = raw
        let tree = raw.withUnsafeBytes { MIMETree(parsing: $0, limits: limits) }
        self.tree = tree
        let textIndex = tree.body(subtype: "plain"), htmlIndex = tree.body(subtype: "html")
        text = textIndex.map { Self.text(of: tree.parts[$0], in: raw) }
        html = htmlIndex.map { Self.text(of: tree.parts[$0], in: raw) }
        attachments = tree.leaves.filter { $0 != textIndex && $0 != htmlIndex }.map { Attachment(part: tree.parts[$0], message: raw) }
    }

    /// The header section of the message (package: the raw fields in order).
    package var headers: MIMEHeaderSection { tree.parts[0].headers }

    /// Whether a limit stopped the parser: a part not opened or not listed, or a header field cut.
    package var isTruncated: Bool { tree.isTruncated }

    /// The value of the first header field named `name` (any case), unfolded and with its RFC 2047
    /// words decoded; nil when there is none.
    package func header(_ name: String) -> String? {
        headers[name].map(MIMEEncodedWords.decode)
    }

    /// The values of every header field named `name` (any case), in order, unfolded and decoded.
    package func headerValues(_ name: String) -> [String] {
        headers.values(name).map(MIMEEncodedWords.decode)
    }

    /// The names of the header fields, in order, as written (a name repeated as often as its field).
    package var headerNames: [String] { headers.fields.map(\.name) }

    /// The subject, decoded; empty when there is none.
    package var subject: String { header("subject") ?? "" }

    /// The mailboxes of the `From` field.
    package var from: [Address] { addresses("from") }
    /// The mailboxes of the `To` fields.
    package var to: [Address] { addresses("to") }
    /// The mailboxes of the `Cc` fields.
    package var cc: [Address] { addresses("cc") }
    /// The mailboxes of a `Bcc` field, when the message has one (a sent message usually does not: its
    /// blind copies are in the envelope).
    package var bcc: [Address] { addresses("bcc") }

    /// The `Message-ID`, without its angle brackets; nil when there is none.
    package var messageID: String? {
        headers["message-id"].map { value in
            var id = value.trimmingMIMESpaces
            if id.hasPrefix("<"), id.hasSuffix(">"), id.count >= 2 { id = String(id.dropFirst().dropLast()) }
            return id
        }
    }

    /// The `Date`, or nil when there is none or it is not an RFC 5322 date.
    package var date: Date? { headers["date"].flatMap(MIMEDate.parse) }

    /// The mailboxes of every field named `name`.
    func addresses(_ name: String) -> [Address] {
        headers.values(name).flatMap(MIMEAddressList.parse)
    }

    /// The section number of the text body's part (`1`, `1.1`), nil without one.
    package var textPartID: String? { tree.body(subtype: "plain").map { tree.parts[$0].section } }
    /// The section number of the HTML body's part, nil without one.
    package var htmlPartID: String? { tree.body(subtype: "html").map { tree.parts[$0].section } }

    /// The decoded content of the part numbered `section`: what Mailpit's `/part/{PartID}` serves.
    package func content(ofPart section: String) -> Data? {
        guard let index = tree.part(section: section) else { return nil }
        let part = tree.parts[index]
        return raw.withUnsafeBytes { Data(part.transferEncoding.decode(UnsafeRawBufferPointer(rebasing: $0[part.bodyRange]))) }
    }

    /// A text part's content: its body decoded from its transfer encoding, then from its charset.
    static func text(of part: MIMEPart, in raw: Data) -> String {
        let bytes = raw.withUnsafeBytes { part.transferEncoding.decode(UnsafeRawBufferPointer(rebasing: $0[part.bodyRange])) }
        return MIMECharset.decode(bytes, charset: part.contentType.parameters["charset"])
    }
}
