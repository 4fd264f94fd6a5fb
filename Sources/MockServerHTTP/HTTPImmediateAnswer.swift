/// What ``HTTPResponder/answerImmediately(_:context:)`` decides without suspending.
public enum HTTPImmediateAnswer: Sendable {
    /// The reply, ready now.
    case reply(HTTPReply)
    /// The responder has no answer for this request: it is recorded as unmatched and its
    /// connection closed.
    case unmatched
    /// The answer needs ``HTTPResponder/respond(to:context:)`` (it awaits something).
    case deferred
}
