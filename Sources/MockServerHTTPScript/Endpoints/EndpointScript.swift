import Foundation
import MockServerCore
import MockServerHTTP
import MockServerScript

/// An HTTP stub script: a response file whose top level is `"endpoints"`, each an `"api"` (method and
/// path), what a request must have, and the response (or a sequence of them), with `${…}` values
/// from the request and the cache. Read by the same reader as response scripts (trailing commas
/// allowed, duplicate keys rejected, errors with file, line and column).
package struct EndpointScript: Sendable {
    /// One endpoint, in file order.
    package struct Endpoint: Sendable {
        package let method: String
        package let path: String
        package let requestHeaders: HTTPHeaderFields
        package let requestBody: String?
        /// The request message a gRPC call must send (`"request": {"grpc": {"json": …}}`).
        package var grpcRequest: GRPCRequestPattern?
        /// The responses in turn; the last repeats. Empty when the endpoint upgrades.
        package let responses: [Response]
        /// What answers the connection once it switches protocol (`"upgrade"`), instead of a
        /// response: the script's responder, starting on its first set (`default`, or the first
        /// written); its scheme is one HTTP upgrades to (WebSocket's).
        package let upgrade: PatternResponder?
        /// Values stored in the cache once the response is chosen.
        package let cache: [(name: String, value: EndpointTemplate)]
    }

    /// One response of an endpoint.
    package struct Response: Sendable {
        package let status: Int
        package let headers: [(name: String, value: EndpointTemplate)]
        package let body: Body
        package let delay: Duration?
        /// Network conditions for this response alone (`"conditions"`).
        package let conditions: NetworkConditions?
        /// Fields sent after the body (`"trailers"`), with values put in as in headers.
        package var trailers: [(name: String, value: EndpointTemplate)] = []
        /// An HTTP/2 fault in place of the response (`"reset"` or `"goaway"`), and the error that
        /// refuses it on a server that speaks only HTTP/1.1.
        package var fault: (HTTPStreamFault, refusedOnHTTP11: ResponseFileError)?
    }

    /// What a response's body is.
    package enum Body: Sendable {
        case none
        case text(EndpointTemplate)
        /// Bytes given as `{"base64": …}` or `{"hex": …}`, sent as they are.
        case bytes([UInt8])
        case json(EndpointJSON)
        /// Server-sent events (`"events"`), each after its delay, as one chunked `text/event-stream` body.
        case events([HTTPMockResponse.ServerSentEvent], end: HTTPMockResponse.StreamEnd)
        /// Pieces of a chunked body (`"chunks"`), each after its delay.
        case chunks([HTTPMockResponse.StreamPiece], end: HTTPMockResponse.StreamEnd)
        /// A gRPC answer (`"grpc"`): length-prefixed messages, each after its delay, and the status as
        /// trailers (or a trailers-only error); for a call that streams from the client, rules that
        /// answer each of its messages as it arrives.
        case grpc(GRPCEndpointAnswer)
    }

    package let endpoints: [Endpoint]
    /// The file's top-level `conditions`, if it gives any.
    package let conditions: NetworkConditions?
    package let file: String?

    /// Whether `json` is an endpoints file (its top level has `"endpoints"`), without checking the rest.
    package static func isEndpointFile(_ json: [UInt8]) -> Bool {
        guard let root = try? JSONReader.parse(json), case .object(let members) = root.kind else { return false }
        return members.contains { $0.key == "endpoints" }
    }

    /// Reads an endpoints file.
    ///
    /// - Throws: ``ResponseFileError`` naming the key or value at fault, with its line and column.
    /// - Parameter vocabulary: the protocols an endpoint's `"upgrade"` script may speak (and use the commands of).
    /// - Parameter schema: the loaded `.proto` schemas, by which gRPC endpoints' `{"json": …}`
    ///   messages and request patterns are read.
    package init(json: [UInt8], file: String? = nil, vocabulary: ScriptVocabulary = .shared, schema: GRPCSchema? = nil) throws(ResponseFileError) {
        self = try EndpointScriptDecoder(base: ResponseScriptDecoder(file: file, vocabulary: vocabulary), schema: schema).decode(json, file: file)
    }

    package init(endpoints: [Endpoint], conditions: NetworkConditions? = nil, file: String?) {
        self.endpoints = endpoints
        self.conditions = conditions
        self.file = file
    }
}
