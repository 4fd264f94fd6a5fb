import MockServerCore

/// A responder whose deferred answers come back through a callback on the server's loop, not from
/// a task: the HTTP/1.1 driver, and the HTTP/2 driver for each stream, start it instead of
/// ``HTTPMockResponder/respond(to:context:)`` when ``HTTPMockResponder/answerImmediately(_:context:)`` says
/// ``HTTPReply/Immediate/deferred``. It saves each request a task, its continuation and its jobs on
/// the loop's executor, which a responder whose waiting is itself loop work (a recording proxy's
/// upstream exchange) has no use for.
///
/// Everything here runs on the loop's thread. The answer is the one `respond` would give: a
/// responder keeps the two paths one code.
package protocol HTTPLoopResponder: HTTPMockResponder {
    /// Starts answering `request` on `loop`'s thread and calls `done` there once with the reply
    /// (`nil` for none), later or before it returns. A later `done` carries the reply out before it
    /// returns (the HTTP/1.1 driver; the HTTP/2 driver does it on a later turn of its own): call it
    /// where the client's connection may run, from a timer or another connection's driver, not from
    /// inside that connection's own driver.
    ///
    /// - Returns: what to call when the client goes away before the reply: the responder ends the
    ///   exchange as `respond` does when its task is cancelled (it may still call `done`, which the
    ///   closed connection ignores).
    func answer(_ request: HTTPMockRequest, context: HTTPRequestContext, on loop: EventLoop,
                done: @escaping (HTTPReply?) -> Void) -> () -> Void
}
