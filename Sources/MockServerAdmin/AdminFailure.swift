import MockServerEngine
import MockServerHTTP

/// Why the control API refuses a request: a 4xx status and a message that names the culprit
/// (the parameter, the body, the file), answered as `{"error": message}`.
struct AdminFailure: Error, Equatable {
    /// The HTTP status.
    let status: Int
    /// What is wrong, naming the culprit.
    let message: String

    init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The failure as the API answers it.
    var reply: HTTPReply { AdminResponder.error(status, message) }
}
