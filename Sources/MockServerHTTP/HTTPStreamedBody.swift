import MockServerCore

/// A body sent in timed pieces with chunked transfer coding, each piece flushed when its time comes:
/// the one writer behind a stub's `StubStream`, an endpoints file's `"events"` and `"chunks"`, and a
/// script's `{"response": {"events": …}}`.
package struct HTTPStreamedBody: Sendable, Hashable {
    package var pieces: [HTTPMockResponse.StreamPiece]
    package var end: HTTPMockResponse.StreamEnd
    /// Whether the pieces are server-sent events: the head then gets the event stream's headers
    /// (``eventStreamHeaders(adding:)``).
    package var isEventStream = false
    /// Fields sent after the last piece, in the trailer section of the last chunk (gRPC's status);
    /// announced by a `Trailer` header on the head.
    package var trailers: HTTPHeaderFields = [:]

    package init(_ pieces: [HTTPMockResponse.StreamPiece], end: HTTPMockResponse.StreamEnd) {
        self.pieces = pieces
        self.end = end
    }

    /// Server-sent events as pieces, one event each (``HTTPMockResponse/ServerSentEvent/text``).
    package init(events: [HTTPMockResponse.ServerSentEvent], end: HTTPMockResponse.StreamEnd) {
        self.init(events.map { HTTPMockResponse.StreamPiece($0.text, delay: $0.delay) }, end: end)
        isEventStream = true
    }

    /// The head that goes before these pieces, for `response`: ``head(of:)``, with the event
    /// stream's headers for events.
    package func head(for response: HTTPMockResponse) -> HTTPMockResponse {
        var response = response
        if isEventStream { response.headers = Self.eventStreamHeaders(adding: response.headers) }
        var head = Self.head(of: response)
        if !trailers.fields.isEmpty, !head.headers.contains("Trailer") {
            head.headers.add(name: "Trailer", value: trailers.map(\.name).joined(separator: ", "))
        }
        return head
    }

    /// The headers of an event stream that `headers` does not set already: `Content-Type:
    /// text/event-stream` and `Cache-Control: no-cache`.
    package static func eventStreamHeaders(adding headers: HTTPHeaderFields) -> HTTPHeaderFields {
        var all = HTTPHeaderFields()
        if !headers.contains("Content-Type") { all.add(name: "Content-Type", value: "text/event-stream") }
        if !headers.contains("Cache-Control") { all.add(name: "Cache-Control", value: "no-cache") }
        for field in headers { all.add(name: field.name, value: field.value) }
        return all
    }

    /// `response`'s head for a streamed body: its headers without a length or a coding of their
    /// own, with `Transfer-Encoding: chunked`, and no body.
    package static func head(of response: HTTPMockResponse) -> HTTPMockResponse {
        var headers = HTTPHeaderFields()
        for field in response.headers where !["content-length", "transfer-encoding"].contains(field.name.lowercased()) {
            headers.add(name: field.name, value: field.value)
        }
        headers.add(name: "Transfer-Encoding", value: "chunked")
        var head = response
        head.headers = headers
        head.body = []
        // The pieces' trailers come after them, not with the head.
        head.trailers = [:]
        return head
    }

    /// The reply steps after the head: each piece as a chunk after its wait, then the end (the last
    /// chunk with the trailers; half of the last piece and a close; or a hang).
    package var steps: [ReplyStep<HTTPReplyOutput>] {
        var steps: [ReplyStep<HTTPReplyOutput>] = []
        for (index, piece) in pieces.enumerated() {
            if let delay = piece.delay, delay > .zero { steps.append(.pause(delay)) }
            let isLast = index == pieces.count - 1
            if isLast && end == .cut {
                let half = Array(piece.bytes.prefix(max(1, piece.bytes.count / 2)))
                steps.append(.send(Self.chunkHead(piece.bytes.count) + half))
                steps.append(.close)
            } else if !piece.bytes.isEmpty {
                steps.append(.send(Self.chunk(piece.bytes)))
            }
        }
        switch end {
        case .complete: steps.append(.send(HTTPResponseSerializer.lastChunk(trailers: trailers)))
        case .cut: if pieces.isEmpty { steps.append(.close) }
        case .hang: steps.append(.fault(.hang))
        }
        return steps
    }

    /// `bytes` as one chunk of a chunked body (its size line, the bytes, CRLF).
    package static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        chunkHead(bytes.count) + bytes + [0x0D, 0x0A]
    }

    private static func chunkHead(_ count: Int) -> [UInt8] {
        Array((String(count, radix: 16) + "\r\n").utf8)
    }
}
