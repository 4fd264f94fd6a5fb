#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call, with the call's name, the address it concerned and the `errno` text.
///
/// Its description reads like `bind(127.0.0.1:8080): Address already in use`.
public struct SocketCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The system call that failed, such as `bind` or `listen`.
    public let call: String
    /// The address the call concerned, such as `127.0.0.1:8080`, or an empty string.
    public let address: String
    /// The `errno` value the call left.
    public let code: Int32
    /// What went wrong in words, when the failure is not the system's (a TLS handshake's, say);
    /// `nil` for a system call, whose ``reason`` is `errno`'s text.
    public let message: String?

    /// Creates an error for `call` on `address` with the given `errno` value, or with `message`
    /// saying what went wrong where no system call did.
    public init(call: String, address: String = "", code: Int32, message: String? = nil) {
        self.call = call
        self.address = address
        self.code = code
        self.message = message
    }

    /// ``message``, or the system's text for ``code``.
    public var reason: String { message ?? String(cString: strerror(code)) }

    /// `call(address): reason`, for example `bind(127.0.0.1:8080): Address already in use`.
    public var description: String { "\(call)(\(address)): \(reason)" }

    /// Whether the peer reset or abandoned the connection (as opposed to a local failure).
    public var isPeerGone: Bool {
        code == EPIPE || code == ECONNRESET || code == ETIMEDOUT || code == ENOTCONN || code == ECONNABORTED
    }

    /// Makes an error from the current `errno`.
    package static func last(_ call: String, _ address: String = "") -> SocketCallError {
        SocketCallError(call: call, address: address, code: errno)
    }
}
