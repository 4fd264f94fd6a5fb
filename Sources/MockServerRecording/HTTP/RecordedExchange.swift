import MockServerHTTP

/// One request and the upstream's answer as they are written: masked, hop-by-hop fields gone, the
/// body de-chunked, a `Location` on the upstream made relative.
struct RecordedExchange: Sendable {
    /// The request as the client sent it (the file's name comes from it).
    let request: HTTPRequest
    /// Whether a masked JSON field was in the request's body (its name then uses the body's hash).
    let requestBodyMasked: Bool
    /// The request body as written (masked when it had masked fields).
    let requestBody: [UInt8]
    let status: Int
    let reason: String
    /// The response's end-to-end headers, masked, without `Content-Length`.
    let headers: HTTPHeaders
    /// The response body, masked where its JSON fields are.
    let body: [UInt8]
    /// How long the upstream took.
    let elapsed: Duration
}
