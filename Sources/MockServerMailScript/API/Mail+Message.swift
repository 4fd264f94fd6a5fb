import Foundation
import MockServerEngine
import MockServerMail

extension MockServer.Mail {
    /// One message as the server received it: its envelope, and its content parsed (headers
    /// folded and decoded, parts and transfer encodings undone).
    public struct Message: Sendable {
        /// The server's ID of the message (as the control API's Mailpit routes give it).
        public let id: String
        /// The envelope's sender (`MAIL FROM`), without angle brackets; empty for `<>`.
        public let sender: String
        /// The envelope's recipients (`RCPT TO`), in order: blind copies included.
        public let recipients: [String]
        /// The decoded subject.
        public let subject: String
        /// The `From` addresses.
        public let from: [String]
        /// The `To` addresses.
        public let to: [String]
        /// The `Cc` addresses.
        public let cc: [String]
        /// The envelope's recipients that are in neither `To` nor `Cc`: the blind copies.
        public let bcc: [String]
        /// The text body, decoded; nil when the message has none.
        public let text: String?
        /// The HTML body, decoded; nil when the message has none.
        public let html: String?
        /// The attachments (and inline parts that are not the bodies), in order.
        public let attachments: [Attachment]
        /// The bytes received, exactly.
        public let raw: Data
        /// When the server received it (or the seed file's time).
        public let received: Date
        /// The parsed message, for its headers.
        private let parsed: MailMessage

        /// A header's value, decoded, by name in any case; the first when there are several.
        public func header(_ name: String) -> String? { parsed.header(name) }

        init(_ transaction: MailTransaction) {
            let message = transaction.message
            parsed = message
            id = transaction.id
            sender = transaction.envelope.sender
            recipients = transaction.envelope.recipients
            subject = message.subject
            from = message.from.map(\.address)
            to = message.to.map(\.address)
            cc = message.cc.map(\.address)
            bcc = transaction.blindCopies
            text = message.text
            html = message.html
            attachments = message.attachments.map(Attachment.init)
            raw = transaction.raw
            received = transaction.time
        }
    }
}
