import MockServerHTTP

/// What an upstream answered one request with, the body de-chunked (compressed bodies are kept as
/// sent), and how long the answer took.
struct UpstreamResponse: Sendable {
    var status: Int
    var reason: String
    var headers: HTTPHeaderFields
    var body: [UInt8]
    /// From the request's first byte sent to the response's last byte read.
    var elapsed: Duration
    /// The trailer fields of a chunked body (gRPC's `grpc-status`, say).
    var trailers = HTTPHeaderFields()
    /// Which common literal names the first of ``headers`` have, as the response parser noted them
    /// (none from an HTTP/2 upstream): the recorder classifies those fields by their literal.
    var fieldIDs = HTTPResponseFieldIDs()
}
