import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(HotPath) import MockServerCore
import MockServerHTTP

/// A reply made of responses and raw bytes only, known in full when the responder answers: the
/// common case, served on the loading thread in `startLoading` without a connection, an
/// exchange or a trip to the mock's loop.
struct InProcessPlainAnswer {
    /// The bytes, as the reply's steps made them: most replies are one response, whose bytes are
    /// kept as they are rather than in an array of one more allocation.
    private enum Bytes {
        /// The bytes of a reply of one step.
        case one([UInt8])
        /// One piece per step of the reply.
        case pieces([[UInt8]])
    }

    /// The bytes.
    private let bytes: Bytes

    /// The bytes, one piece per step of the reply.
    var pieces: [[UInt8]] {
        switch bytes {
        case .one(let whole): [whole]
        case .pieces(let pieces): pieces
        }
    }

    /// The bytes in one array.
    var joined: [UInt8] {
        switch bytes {
        case .one(let whole): whole
        case .pieces(let pieces): Array(pieces.joined())
        }
    }
    /// For a reply of one response, what a client reads from its bytes, as the serializer made
    /// them (no need to read the bytes back, nor to make a head of them).
    private let known: HTTPKnownResponse?

    /// What a client is handed: the status and version, the header fields as Foundation takes
    /// them, the fields to find cookies in, and the body.
    struct Delivery {
        let status: Int
        let version: String
        let fields: [String: String]
        let headers: HTTPHeaderFields
        let body: [UInt8]
    }

    /// The plain form of `reply` to `request`, or `nil` when the reply does more than send
    /// (pauses, faults, closes, commands that act later).
    init?(_ reply: HTTPReply, to request: HTTPMockRequest) {
        // The reply as Core's one interpreter reads it; anything but sends ends the plain form, and
        // a `then` is not worked out here, off the server's thread.
        var interpreter = ReplyInterpreter(reply.steps)
        var pieces: [[UInt8]] = []
        while !interpreter.waitsToWorkOut {
            switch interpreter.next() {
            case .output(.response(let response)):
                if pieces.isEmpty, interpreter.isAtEnd {
                    // One response, the commonest reply: its bytes as they are, and what a client reads of them.
                    let written = HTTPResponseSerializer.serializeKnowing(response, for: request)
                    bytes = .one(written.bytes)
                    known = written.known
                    return
                }
                pieces.append(HTTPResponseSerializer.serialize(response, for: request).bytes)
            case .send(let bytes):
                pieces.append(bytes)
            case .end:
                self.bytes = .pieces(pieces)
                self.known = nil
                return
            case .pause, .conditions, .output, .fault, .close:
                return nil
            }
        }
        return nil
    }

    /// What a client is handed, when the bytes are one whole, well-formed response that is not a
    /// redirect to follow; `nil` when they need a connection's handling.
    func response(toMethod method: String, from url: URL) -> Delivery? {
        if let known {
            // Only a redirect status needs the head (its `Location` as a client reads it).
            if InProcessRedirect.statuses.contains(known.status), InProcessRedirect(known.head, from: url) != nil { return nil }
            return Delivery(status: known.status, version: known.version, fields: known.foundationFields, headers: known.ownHeaders, body: known.body)
        }
        // Read back as a client reads them; joined only here, where they are read.
        var parser = HTTPResponseParser(requestMethod: method)
        guard let events = try? parser.append(joined) + parser.finish(), case .head(let head)? = events.first,
              events.last == .end, InProcessRedirect(head, from: url) == nil else { return nil }
        var body: [UInt8] = []
        for case .body(let piece) in events { body += piece }
        return Delivery(status: head.status, version: head.version, fields: head.foundationFields, headers: head.headers, body: body)
    }

    /// Records what a connection carrying the exchange would: it connected, the request and its
    /// answer, the bytes, and the client's close.
    func record(_ reply: HTTPReply, to request: HTTPMockRequest, connectionID: Int, in environment: ServerEnvironment) {
        var events: [Transcript.Event] = []
        let pieceCount = switch bytes {
        case .one: 1
        case .pieces(let pieces): pieces.count
        }
        events.reserveCapacity(pieceCount + 3)
        events.append(.connected(peer: "in-process"))
        environment.logger.log(.debug, "connected from in-process", connection: connectionID)
        if reply.isUnexpected {
            events.append(.unmatched(request.input))
            environment.logger.log(.warning, "unexpected request: \(request.input)", connection: connectionID)
        } else {
            events.append(.input(request.input, response: reply.name))
            environment.logger.log(.trace, "<- \(request.input) [\(reply.name ?? "")]", connection: connectionID)
        }
        switch bytes {
        case .one(let whole): events.append(.output(whole))
        case .pieces(let pieces): for piece in pieces { events.append(.output(piece)) }
        }
        events.append(.closed(.peerClosed))
        // One step: a reader of the transcript sees the whole exchange or none of it.
        environment.record(events, connection: connectionID)
        environment.logger.log(.debug, "closed (\(Transcript.CloseReason.peerClosed))", connection: connectionID)
    }

    /// Hands a response to the client at once, on the loading thread: its head (keeping its
    /// cookies), its body in one piece, the end.
    static func deliver(_ response: Delivery, to url: URL, for request: URLRequest, cookies: InProcessCookies,
                        protocol urlProtocol: URLProtocol, client: any URLProtocolClient) {
        cookies.store(from: response.headers, fields: response.fields, for: request, url: url)
        if let made = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: response.version, headerFields: response.fields) {
            client.urlProtocol(urlProtocol, didReceive: made, cacheStoragePolicy: .notAllowed)
        }
        if !response.body.isEmpty { client.urlProtocol(urlProtocol, didLoad: Data(response.body)) }
        client.urlProtocolDidFinishLoading(urlProtocol)
    }
}
