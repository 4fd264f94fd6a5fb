/// The one writer of the HTTP responses the server sends, with RFC 9112's rules for the length
/// and the persistence of the connection.
public enum HTTPResponseSerializer {
    /// The bytes of `response` as an answer to `request`, and whether the connection stays open.
    ///
    /// - `Content-Length` is added unless a header gives it or `Transfer-Encoding`, or the status
    ///   has no body; a `HEAD` request gets the length without the body.
    /// - Persistence (RFC 9112 §9.3): the connection stays open for HTTP/1.1 unless the request or
    ///   the response says `Connection: close`, and for HTTP/1.0 only when the request asked for
    ///   `keep-alive`. The response gets `Connection: keep-alive` for a 1.0 client that stays, and
    ///   `Connection: close` whenever the server will close, unless it has a `Connection` header.
    ///   Without a request (`nil`), nothing is added and the connection stays open.
    public static func serialize(_ response: HTTPResponse, for request: HTTPRequest?) -> (bytes: [UInt8], keepAlive: Bool) {
        var output: [UInt8] = []
        output.reserveCapacity(128 + response.body.count)
        output.append(contentsOf: "HTTP/1.1 ".utf8)
        if response.status > 0 {
            output.append(contentsOf: String(response.status).utf8)
            if !response.reason.isEmpty {
                output.append(0x20)
                output.append(contentsOf: response.reason.utf8)
            }
        } else {
            output.append(contentsOf: response.reason.utf8)
        }
        output += [0x0D, 0x0A]
        var framed = false
        for field in response.headers {
            if field.name.equalsIgnoringASCIICase("content-length") || field.name.equalsIgnoringASCIICase("transfer-encoding") { framed = true }
            append(field.name, field.value, to: &output)
        }
        var keepAlive = true
        if let request {
            keepAlive = request.wantsKeepAlive && !response.headers.hasToken("close", in: "Connection")
            if !response.headers.contains("Connection") {
                if !keepAlive {
                    append("Connection", "close", to: &output)
                } else if !request.version.hasPrefix("HTTP/1.1") {
                    append("Connection", "keep-alive", to: &output)
                }
            }
        }
        let bodiless = response.isBodiless
        if !framed && !bodiless { append("Content-Length", String(response.body.count), to: &output) }
        output.append(0x0D)
        output.append(0x0A)
        if !bodiless && request?.method != "HEAD" { output.append(contentsOf: response.body) }
        return (output, keepAlive)
    }

    /// `HTTP/1.1 100 Continue` and its blank line.
    public static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private static func append(_ name: String, _ value: String, to output: inout [UInt8]) {
        output.append(contentsOf: name.utf8)
        output.append(0x3A)
        output.append(0x20)
        output.append(contentsOf: value.utf8)
        output.append(0x0D)
        output.append(0x0A)
    }
}
