import MockServerCore
import MockServerHTTP

/// Turns a stream's request fields (RFC 9113 §8.3) into the ``HTTPMockRequest`` HTTP/1.1 would give:
/// `:method` and `:path` as the request line, `:authority` as `Host`, the other fields as they
/// came (cookies joined, §8.2.3), and the request's bytes, for patterns and the transcript, written
/// as the HTTP/1.1 request they stand for (`GET /path HTTP/1.1`, `Host: …`), so that a script's
/// patterns match either; the transcript names HTTP/2 and the stream in a note after it.
enum HTTP2RequestHead {
    /// Fields HTTP/2 forbids (§8.2.2): a response's are left out, a request's make it malformed.
    static let connectionSpecific: Set<String> = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"]

    /// The request, or a stream error (PROTOCOL_ERROR) naming what is wrong with its fields.
    static func request(fields: [HPACKHeader], body: [UInt8], streamID: UInt32) throws(HTTP2Error) -> HTTPMockRequest {
        var method: String?
        var path: String?
        var authority: String?
        var headers = HTTPHeaders()
        var cookies: [String] = []
        var sawRegularField = false
        for field in fields {
            let name = String(decoding: field.name, as: UTF8.self)
            let value = String(decoding: field.value, as: UTF8.self)
            if name.hasPrefix(":") {
                guard !sawRegularField else {
                    throw HTTP2Error(.protocolError, stream: streamID, "the pseudo-header \(name) on stream \(streamID) comes after a regular field")
                }
                switch name {
                case ":method": method = value
                case ":path": path = value
                case ":authority": authority = value
                case ":scheme", ":protocol": break
                default: throw HTTP2Error(.protocolError, stream: streamID, "an unknown pseudo-header \(name) on stream \(streamID)")
                }
                continue
            }
            sawRegularField = true
            guard !connectionSpecific.contains(name), name.lowercased() == name else {
                throw HTTP2Error(.protocolError, stream: streamID, "the field \(name) on stream \(streamID) is not allowed in HTTP/2")
            }
            if name == "cookie" { cookies.append(value) } else { headers.add(name: name, value: value) }
        }
        guard let method, let path, !path.isEmpty || method == "CONNECT" else {
            throw HTTP2Error(.protocolError, stream: streamID, "stream \(streamID)'s request has no :method or :path")
        }
        var all = HTTPHeaders()
        if let authority, !headers.contains("host") { all.add(name: "Host", value: authority) }
        for field in headers { all.add(name: field.name, value: field.value) }
        if !cookies.isEmpty { all.add(name: "cookie", value: cookies.joined(separator: "; ")) }
        if !body.isEmpty, !all.contains("content-length") { all.add(name: "content-length", value: String(body.count)) }
        var text = "\(method) \(path) HTTP/1.1\r\n"
        for field in all { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        let head = Array(text.utf8)
        let bytes = head + body
        return HTTPMockRequest(method: method, target: path, version: "HTTP/1.1", headers: all, input: InputUnit(bytes: bytes),
                               body: .range(head.count..<bytes.count))
    }
}
