import MockServerCore

/// An answer given while its request's body still streams in: a gRPC call answered message by
/// message (client streaming, bidirectional). The HTTP/2 driver hands it the body's bytes as they
/// arrive and runs the steps it gives back after those still running; the steps of one answer make
/// one response (a head, a chunked body, trailers), as a whole reply's do. It lives on the
/// connection's loop and never touches a socket.
///
/// A driver that reads whole bodies (HTTP/1.1) gets the same answer from
/// ``HTTPMockResponder/answerImmediately(_:context:)``, given the whole body at once: a responder
/// keeps the two paths one code.
package protocol HTTPStreamingAnswer: AnyObject {
    /// What the transcript names as the request's answer (the endpoint).
    var name: String? { get }
    /// Bytes of the request's body arrived: the steps to run next.
    func received(_ bytes: [UInt8]) -> [ReplyStep<HTTPReplyOutput>]
    /// The request's body ended (the client half-closed): the last steps.
    func ended() -> [ReplyStep<HTTPReplyOutput>]
    /// Whether the answer gave its last steps (its status went): the request's later bytes are
    /// read and dropped.
    var isFinished: Bool { get }
    /// What the transcript notes about the bytes received since the last call (each request message,
    /// decoded), handed over once.
    func takeNotes() -> [Transcript.Note]
    /// The bytes of the request's body the answer holds now (the start of a message not complete
    /// yet): they count towards what one connection may hold of request bodies.
    var heldByteCount: Int { get }
}

/// A responder that may answer a request as its body streams in (``HTTPStreamingAnswer``).
package protocol HTTPStreamingResponder: HTTPMockResponder {
    /// Whether a request for `path` may be answered as it streams in: when not, its head is not
    /// read twice (asked for every request whose body is still to come, so it must be cheap).
    func mayAnswerAsItStreams(path: String) -> Bool

    /// The answer that takes `head`'s body as it streams in, or `nil` to answer it whole as usual.
    /// Asked when a request's head arrived and its body is still to come; on the loop's thread.
    func streamingAnswer(to head: HTTPMockRequest, context: HTTPRequestContext) -> (any HTTPStreamingAnswer)?
}
