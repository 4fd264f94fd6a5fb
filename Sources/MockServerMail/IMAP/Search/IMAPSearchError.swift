/// Why a SEARCH or SORT command was refused.
package enum IMAPSearchError: Error, Hashable, Sendable {
    /// Malformed or past a limit: answered `BAD` with this text, which names the culprit.
    case bad(String)
    /// A CHARSET other than UTF-8 and US-ASCII: answered
    /// `NO [BADCHARSET (UTF-8 US-ASCII)]` (RFC 9051 §6.4.4).
    case badCharset(String)

    /// The charsets searches accept, as the BADCHARSET response code lists them.
    package static let supportedCharsets = ["UTF-8", "US-ASCII"]

    /// The text after `BAD` or after `NO`, response code included.
    package var text: String {
        switch self {
        case .bad(let text): text
        case .badCharset(let name):
            "[BADCHARSET (\(Self.supportedCharsets.joined(separator: " ")))] Unsupported charset \(name)"
        }
    }
}
