import Foundation
import MockServerEngine
import MockServerMail

extension MockServer.Mail {
    /// A part of a message that is not one of its bodies: a file, an inline image.
    public struct Attachment: Sendable {
        /// Its file name, decoded (RFC 2231, RFC 2047), when it has one.
        public let fileName: String?
        /// Its content type, as `type/subtype` in lower case.
        public let contentType: String
        /// Its content ID, without angle brackets, when it has one.
        public let contentID: String?
        /// Its content, decoded from its transfer encoding.
        public let data: Data

        init(_ attachment: MailMessage.Attachment) {
            fileName = attachment.fileName
            contentType = attachment.contentType
            contentID = attachment.contentID
            data = attachment.data
        }
    }
}
