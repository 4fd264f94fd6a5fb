import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerCore
import MockServerHTTP

/// A reply made of responses and raw bytes only, known in full when the responder answers: the
/// common case, served on the loading thread in `startLoading` without a connection, an
/// exchange or a trip to the mock's loop.
struct InProcessPlainAnswer {
    /// The bytes, one piece per step of the reply.
    let pieces: [[UInt8]]
    /// For a reply of one response, the head and body a client reads from its bytes, as the
    /// serializer made them (no need to read the bytes back).
    private let known: (head: HTTPResponseHead, body: [UInt8])?

    /// The plain form of `reply` to `request`, or `nil` when the reply does more than send
    /// (pauses, faults, closes, commands that act later).
    init?(_ reply: HTTPReply, to request: HTTPMockRequest) {
        if reply.steps.count == 1, case .output(.response(let response)) = reply.steps[0] {
            let written = HTTPResponseSerializer.serializeWithHead(response, for: request)
            pieces = [written.bytes]
            known = written.head.map { ($0, written.body) }
            return
        }
        var pieces: [[UInt8]] = []
        for step in reply.steps {
            switch step {
            case .output(.response(let response)): pieces.append(HTTPResponseSerializer.serialize(response, for: request).bytes)
            case .send(let bytes): pieces.append(bytes)
            default: return nil
            }
        }
        self.pieces = pieces
        self.known = nil
    }

    /// The head and body a client reads, when the bytes are one whole, well-formed response that
    /// is not a redirect to follow; `nil` when they need a connection's handling.
    func response(toMethod method: String, from url: URL) -> (head: HTTPResponseHead, body: [UInt8])? {
        let response: (head: HTTPResponseHead, body: [UInt8])
        if let known {
            response = known
        } else {
            // Read back as a client reads them; joined only here, where they are read.
            var parser = HTTPResponseParser(requestMethod: method)
            guard let events = try? parser.append(Array(pieces.joined())) + parser.finish(), case .head(let head)? = events.first,
                  events.last == .end else { return nil }
            var body: [UInt8] = []
            for case .body(let piece) in events { body += piece }
            response = (head, body)
        }
        return InProcessRedirect(response.head, from: url) == nil ? response : nil
    }

    /// Records what a connection carrying the exchange would: it connected, the request and its
    /// answer, the bytes, and the client's close.
    func record(_ reply: HTTPReply, to request: HTTPMockRequest, connectionID: Int, in environment: ServerEnvironment) {
        var events: [Transcript.Event] = []
        events.reserveCapacity(pieces.count + 3)
        events.append(.connected(peer: "in-process"))
        environment.logger.log(.debug, "connected from in-process", connection: connectionID)
        if reply.isUnexpected {
            events.append(.unmatched(request.input))
            environment.logger.log(.warning, "unexpected request: \(request.input)", connection: connectionID)
        } else {
            events.append(.input(request.input, response: reply.name))
            environment.logger.log(.trace, "<- \(request.input) [\(reply.name ?? "")]", connection: connectionID)
        }
        for piece in pieces { events.append(.output(piece)) }
        events.append(.closed(.peerClosed))
        // One step: a reader of the transcript sees the whole exchange or none of it.
        environment.record(events, connection: connectionID)
        environment.logger.log(.debug, "closed (\(Transcript.CloseReason.peerClosed))", connection: connectionID)
    }

    /// Hands a response to the client at once, on the loading thread: its head (keeping its
    /// cookies), its body in one piece, the end.
    static func deliver(_ response: (head: HTTPResponseHead, body: [UInt8]), to url: URL, for request: URLRequest, cookies: InProcessCookies,
                        protocol urlProtocol: URLProtocol, client: any URLProtocolClient) {
        let fields = response.head.foundationFields
        cookies.store(from: response.head, fields: fields, for: request, url: url)
        if let made = HTTPURLResponse(url: url, statusCode: response.head.status, httpVersion: response.head.version, headerFields: fields) {
            client.urlProtocol(urlProtocol, didReceive: made, cacheStoragePolicy: .notAllowed)
        }
        if !response.body.isEmpty { client.urlProtocol(urlProtocol, didLoad: Data(response.body)) }
        client.urlProtocolDidFinishLoading(urlProtocol)
    }
}
