import MockServerHTTP

/// One request and the upstream's answer as they are written: masked, hop-by-hop fields gone, the
/// body de-chunked, a `Location` on the upstream made relative.
struct RecordedExchange: Sendable {
    /// The request as the client sent it, its masked query parameters and body fields replaced
    /// (the file's name and the endpoint come from it).
    let request: HTTPMockRequest
    /// The request body as written (masked when it had masked fields).
    let requestBody: [UInt8]
    let status: Int
    let reason: String
    /// The response's end-to-end headers, masked, without `Content-Length`.
    let headers: HTTPHeaderFields
    /// The response body, masked where its JSON fields are.
    let body: [UInt8]
    /// How long the upstream took.
    let elapsed: Duration
    /// The response's trailers, masked.
    var trailers = HTTPHeaderFields()
}
