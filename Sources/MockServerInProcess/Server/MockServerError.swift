/// Misuse of a server's API.
public enum MockServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// ``MockServer/useResponseSet(_:)`` was called while the responder is not a ``PatternResponder``.
    case notAPatternResponder
    /// An in-process session was asked of a server that is not running.
    case notRunning
    /// An in-process session was asked of a server that does not speak HTTP (a line script).
    case notHTTP
    /// An HTTP/2 setting of the configuration (``MockServer/Configuration/http2MaxFrameSize``, …)
    /// out of the range RFC 9113 §6.5.2 allows, or a defence's limit
    /// (``MockServer/Configuration/http2Defences``) out of its range: what it is and what it may be.
    case invalidHTTP2Setting(String)
    /// A trusting session (``MockServer/trustingSession(configuration:)``) was asked of a server
    /// without TLS.
    case notTLS
    /// A trusting session was asked where URLSession cannot be told to trust a CA (Linux, for a
    /// generated identity): the text says why and what works instead.
    case trustUnsupported(String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .notAPatternResponder: "the server's responder is not a PatternResponder, so it has no response sets"
        case .notRunning: "the server is not running: call start() before asking for an in-process session"
        case .notHTTP: "the server does not speak HTTP (a line script): only HTTP responders and scripts with scheme http or webdav answer in-process"
        case .invalidHTTP2Setting(let reason): reason
        case .notTLS: "the server has no TLS (configuration.tls is nil): a trusting session is for https"
        case .trustUnsupported(let reason): reason
        }
    }
}
