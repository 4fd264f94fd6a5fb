/// Why one of our mail routes (``MailControlAPI``) refused a request: the HTTP status (400 for a
/// bad parameter or body, 404 for an unknown address or folder) and a message naming the culprit,
/// answered as the control API answers its own errors: `{"error": message}`.
struct MailControlError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status.
    let status: Int
    /// What was wrong, naming the parameter, field, point, address or folder at fault.
    let description: String

    init(_ status: Int, _ description: String) {
        self.status = status
        self.description = description
    }
}
