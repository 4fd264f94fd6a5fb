import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerHTTP

/// A request made ready for its mock before the load starts: its bytes as a client sends them
/// and, when they parse, the request the responder gets.
///
/// Made where the loading system makes the protocol object: FoundationNetworking does that on a
/// concurrent queue, while `startLoading` runs on the session's one serial queue, which every task
/// of the session waits for. Nothing in it reaches the mock (its transcript, its stubs' counts)
/// until the load starts.
struct PreparedRequest: Sendable {
    /// The request's bytes: request line, header fields, body.
    let bytes: [UInt8]
    /// The request as the server's parser reads those bytes, or `nil` when it cannot.
    let parsed: HTTPMockRequest?

    /// Prepares `request` for `route`'s mock; `addingStoredCookies` asks the session's cookie
    /// storage for a `Cookie` field the request lacks (see ``MockURLProtocol``'s initializer for
    /// when the loading system did that already).
    init(_ request: URLRequest, route: InProcessRoute, addingStoredCookies: Bool = true) {
        let wire = request.wireRequest(route: route, addingStoredCookies: addingStoredCookies)
        bytes = wire.bytes
        // Read from the parts it was written from, as the server's parser reads the bytes.
        parsed = try? HTTPRequestParser().request(bytes: wire.bytes, requestLineLength: wire.requestLineLength, headLength: wire.headLength,
                                                  headers: wire.headers)
    }
}
