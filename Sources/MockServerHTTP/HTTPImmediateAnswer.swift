extension HTTPReply {
    /// What ``HTTPMockResponder/answerImmediately(_:context:)`` decides without suspending.
    public enum Immediate: Sendable {
        /// The reply, ready now.
        case reply(HTTPReply)
        /// The responder has no answer for this request: it is recorded as unmatched and its
        /// connection closed.
        case unmatched
        /// The answer needs ``HTTPMockResponder/respond(to:context:)`` (it awaits something).
        case deferred
        /// The answer comes from `answer`, run in a task like ``HTTPMockResponder/respond(to:context:)``: a
        /// responder that has already worked out what answers (found a stub, say) hands over the part
        /// that awaits, rather than have ``HTTPMockResponder/respond(to:context:)`` work it out again.
        /// A `nil` result is an unmatched request; a thrown error is answered with a 500 naming it.
        case asynchronous(@Sendable () async throws -> HTTPReply?)
    }
}
