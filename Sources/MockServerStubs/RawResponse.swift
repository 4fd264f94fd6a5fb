import MockServerHTTP

/// Reads a response as `curl -is` prints it.
enum RawResponse {
    static func parse(_ bytes: [UInt8]) throws(StubError) -> Stub.Response {
        let response: HTTPMockResponse
        do {
            response = try HTTPRawResponse.parse(bytes, skippingInterim: true)
        } catch {
            throw .malformedRawResponse(error.description)
        }
        var stub = Stub.Response(status: response.status, headers: response.headers, body: response.body)
        stub.reason = response.reason
        return stub
    }
}
