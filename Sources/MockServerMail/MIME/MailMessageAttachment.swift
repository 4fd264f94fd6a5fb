import Foundation

extension MailMessage {
    /// A part of a message that is neither its text nor its HTML body: a file, an inline image, an
    /// attached message. Its bytes stay in the message's storage until `data` decodes them.
    package struct Attachment: Sendable {
        /// The part's number, as IMAP and Mailpit number parts: `2`, `1.2`, `3.1` (`1` for the body
        /// of a message that is not multipart).
        package let partID: String
        /// The file name: the `filename` parameter of `Content-Disposition`, else the `name`
        /// parameter of `Content-Type`, with RFC 2231 and RFC 2047 encodings decoded; nil when
        /// neither is given.
        package let fileName: String?
        /// The media type, lowercased (`image/png`); `text/plain` when the part names none.
        package let contentType: String
        /// The `Content-ID`, without its angle brackets; nil when there is none.
        package let contentID: String?
        /// The `Content-Disposition` value, lowercased (`attachment`, `inline`); nil when there is none.
        package let disposition: String?
        /// The size of the decoded content, in bytes.
        package let size: Int
        /// The whole message's bytes (shared, not copied) and where the part's body is in them.
        let message: Data
        let bodyRange: Range<Int>
        let transferEncoding: MIMETransferEncoding

        /// The content, decoded from its transfer encoding (base64, quoted-printable).
        package var data: Data {
            message.withUnsafeBytes { Data(transferEncoding.decode(UnsafeRawBufferPointer(rebasing: $0[bodyRange]))) }
        }

        /// The attachment that `part` of `message` is.
        package init(part: MIMEPart, message: Data) {
            partID = part.section
            let name = part.disposition?.parameters["filename"] ?? part.contentType.parameters["name"]
            fileName = name?.trimmingMIMESpaces
            contentType = part.mediaType
            contentID = part.headers["content-id"].map { value in
                var id = value.trimmingMIMESpaces
                if id.hasPrefix("<"), id.hasSuffix(">"), id.count >= 2 { id = String(id.dropFirst().dropLast()) }
                return id
            }
            disposition = part.disposition?.value
            self.message = message
            bodyRange = part.bodyRange
            transferEncoding = part.transferEncoding
            // Bytes as they are need no decoding to be counted.
            size = part.transferEncoding == .identity ? part.bodyRange.count
                : message.withUnsafeBytes { part.transferEncoding.decode(UnsafeRawBufferPointer(rebasing: $0[part.bodyRange])).count }
        }
    }
}
