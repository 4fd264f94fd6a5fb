/// A part's Content-Transfer-Encoding (RFC 2045 §6): how its body's bytes stand for its content.
/// 7bit, 8bit, binary and any encoding not known are the bytes as they are (as Python gives them).
package enum MIMETransferEncoding: Sendable, Equatable {
    case identity
    case base64
    case quotedPrintable

    /// The encoding a header value names (any case, spaces around it ignored).
    package init(headerValue: String?) {
        switch headerValue?.trimmingMIMESpaces.lowercased() {
        case "base64"?: self = .base64
        case "quoted-printable"?: self = .quotedPrintable
        default: self = .identity
        }
    }

    /// The content `body` stands for.
    package func decode(_ body: UnsafeRawBufferPointer) -> [UInt8] {
        switch self {
        case .identity: Array(body)
        case .base64: MIMEBase64.decode(body)
        case .quotedPrintable: MIMEQuotedPrintable.decode(body)
        }
    }
}
