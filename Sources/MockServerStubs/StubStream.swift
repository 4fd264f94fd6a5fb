import MockServerCore
import MockServerHTTP
import MockServerScript

/// A body sent in timed pieces with chunked transfer coding, each piece flushed when its time
/// comes: progress, streaming APIs, token streams. Server-sent events are one kind
/// (``Stub.Response/events(_:status:headers:end:)``).
public struct StubStream: Sendable {
    /// One piece and the wait before it: ``HTTPMockResponse/StreamPiece``, the one model a stub, an
    /// endpoints file and a script share.
    ///
    /// ```swift
    /// StubStream.Piece("data: 1\n\n", delay: .milliseconds(100))
    /// ```
    public typealias Piece = HTTPMockResponse.StreamPiece

    /// How the stream ends: ``HTTPMockResponse/StreamEnd``, the one model a stub, an endpoints file
    /// and a script share.
    ///
    /// ```swift
    /// StubStream([.init("a"), .init("b")], end: .cut)
    /// ```
    public typealias End = HTTPMockResponse.StreamEnd

    /// One event of a `text/event-stream` response: ``HTTPMockResponse/ServerSentEvent``, the one
    /// model a stub, an endpoints file and a script share.
    ///
    /// ```swift
    /// server.stubRequest("GET", "/ticks").andReturn(.events([
    ///     StubStream.Event(event: "tick", data: "1"),
    ///     StubStream.Event(event: "tick", data: "2", delay: .milliseconds(200)),
    /// ]))
    /// ```
    public typealias Event = HTTPMockResponse.ServerSentEvent

    /// The pieces, in order.
    public var pieces: [Piece]
    /// How it ends.
    public var end: End

    /// A stream of `pieces` that ends as `end` says.
    public init(_ pieces: [Piece], end: End = .complete) {
        self.pieces = pieces
        self.end = end
    }
}
