/// Why an upstream gave no answer: what the recorder's `502 Bad Gateway` names in its body.
package enum UpstreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The connection could not be made (refused, unreachable), with the system's words.
    case connectionFailed(address: String, reason: String)
    /// No complete answer came within the time allowed.
    case timedOut(address: String, seconds: Double)
    /// The upstream closed the connection or sent something that is not an HTTP response.
    case badResponse(address: String, reason: String)
    /// The answer's body is longer than the recorder keeps (``HTTPRecorder/maximumBodySize``).
    case tooLarge(address: String, limit: Int)
    /// The recorder's server has stopped, or the request was made outside a running server.
    case unavailable(String)

    package var description: String {
        switch self {
        case .connectionFailed(let address, let reason): "cannot connect to the upstream \(address): \(reason)"
        case .timedOut(let address, let seconds): "the upstream \(address) did not answer within \(seconds.formatted()) s"
        case .badResponse(let address, let reason): "the upstream \(address) gave no usable response: \(reason)"
        case .tooLarge(let address, let limit):
            "the upstream \(address) answered with a body longer than the recorder's limit of \(limit) bytes, which it holds whole to record;"
                + " it was neither forwarded nor recorded (raise it with mockserver record --max-body BYTES, or HTTPRecorder's maximumBodySize)"
        case .unavailable(let reason): "no upstream exchange: \(reason)"
        }
    }
}

private extension Double {
    func formatted() -> String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
