/// Why a Mailpit route refused a request: the status Mailpit answers it with (400 for a bad
/// request, 404 for an unknown message or part) and a message naming the culprit, sent as
/// `text/plain` as Mailpit sends its errors.
struct MailpitFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status.
    let status: Int
    /// What was wrong, naming the field, ID or part at fault.
    let description: String

    init(_ status: Int, _ description: String) {
        self.status = status
        self.description = description
    }
}
