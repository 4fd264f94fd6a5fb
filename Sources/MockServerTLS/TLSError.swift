/// Why TLS could not be set up or went wrong.
public enum TLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// OpenSSL 3 could not be loaded; the text names the library, how to install it where that can
    /// be done, and the alternative that needs no TLS (an in-process URLSession).
    case libraryMissing(String)
    /// OpenSSL refused to make a key, a certificate or a context; the text is its error.
    case setupFailed(String)
    /// A certificate or key given as PEM could not be read; the text says which and why.
    case badPEM(String)

    /// The reason in a sentence.
    public var description: String {
        switch self {
        case .libraryMissing(let text): "TLS unavailable: \(text)"
        case .setupFailed(let text): "TLS setup failed: \(text)"
        case .badPEM(let text): "TLS certificate or key not usable: \(text)"
        }
    }
}
