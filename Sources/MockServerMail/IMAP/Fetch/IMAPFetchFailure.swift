/// Why a FETCH item could not be answered for a message: the session ends the command with
/// `NO [code] text` instead of `OK` (RFC 3516 §4.2, as Dovecot does, after the items it could send).
package enum IMAPFetchFailure: Error, Sendable, Hashable {
    /// BINARY or BINARY.SIZE of a part whose Content-Transfer-Encoding is not one the server can
    /// decode (7bit, 8bit, binary, base64, quoted-printable); the part and the encoding as written.
    case unknownTransferEncoding(part: [Int], encoding: String)
    /// An item the session answers itself (UID, FLAGS, INTERNALDATE, MODSEQ) was handed to
    /// ``IMAPMessageContent``: a defect in the session.
    case notMessageContent(IMAPFetchAttribute)

    /// The response code, without brackets (`UNKNOWN-CTE`), if there is one.
    package var code: String? {
        switch self {
        case .unknownTransferEncoding: "UNKNOWN-CTE"
        case .notMessageContent: nil
        }
    }

    /// The text after the code, naming the part.
    package var text: String {
        switch self {
        case .unknownTransferEncoding(let part, let encoding):
            "Unknown Content-Transfer-Encoding \(encoding) in part \(part.map(String.init).joined(separator: "."))."
        case .notMessageContent(let attribute):
            "Not message content: \(attribute)."
        }
    }
}
