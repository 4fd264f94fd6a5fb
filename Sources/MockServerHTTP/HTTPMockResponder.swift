/// Decides what the server answers an HTTP request with. A responder never touches a socket.
///
/// The server asks ``answerImmediately(_:context:)`` first, on its event-loop thread (or, for a
/// request made in-process through `URLSession`, on the thread that loads it): a responder that can
/// answer without suspending (a script, a table of stubs) answers there, which saves a hop to a
/// task. Like every member, it may be called from several threads at once. When it says ``HTTPReply.Immediate/deferred``, the server calls
/// ``respond(to:context:)`` in a task and carries on with other connections meanwhile; the
/// connection waits, and a closed connection cancels the task.
///
/// That task prefers the server's own loop thread as its executor (on Linux, and on macOS 15 and
/// later; on earlier systems it runs on Swift's cooperative pool): code that does not suspend runs
/// there without a thread hop, and must not block, as it would hold up every connection of the
/// server. Whatever it awaits elsewhere (an actor, say) runs where that lives; a test that blocks
/// the cooperative pool's few threads in synchronous reads can starve such work.
public protocol HTTPMockResponder: Sendable {
    /// The reply to `request`, or `nil` when the responder has no answer (the request is recorded
    /// as unmatched and the connection closed). A thrown error is answered with a 500 naming it.
    func respond(to request: HTTPMockRequest, context: HTTPRequestContext) async throws -> HTTPReply?

    /// The reply when it can be given at once, on the server's thread (or an in-process client's);
    /// it must not block.
    func answerImmediately(_ request: HTTPMockRequest, context: HTTPRequestContext) throws -> HTTPReply.Immediate

    /// The answer to the head of a request whose client waits for `100 Continue` before sending
    /// the body, or `nil` to send `100 Continue` and await the body.
    ///
    /// A reply without ``HTTPReplyOutput/continueRequest`` ends the exchange: the body is not awaited,
    /// and once the reply is sent the server stops sending and closes when the client does.
    func answerHead(_ head: HTTPMockRequest, context: HTTPRequestContext) -> HTTPReply?
}

extension HTTPMockResponder {
    /// By default, every request goes to ``respond(to:context:)``.
    public func answerImmediately(_ request: HTTPMockRequest, context: HTTPRequestContext) throws -> HTTPReply.Immediate { .deferred }

    /// By default, every waiting client gets `100 Continue`.
    public func answerHead(_ head: HTTPMockRequest, context: HTTPRequestContext) -> HTTPReply? { nil }
}
