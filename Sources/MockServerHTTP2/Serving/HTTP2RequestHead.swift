import MockServerCore
import MockServerHTTP

/// Turns a stream's request fields (RFC 9113 §8.3) into the ``HTTPMockRequest`` HTTP/1.1 would give:
/// `:method` and `:path` as the request line, `:authority` as `Host`, the other fields as they
/// came (cookies joined, §8.2.3), and the request's bytes, for patterns and the transcript, written
/// as the HTTP/1.1 request they stand for (`GET /path HTTP/1.1`, `Host: …`), so that a script's
/// patterns match either; the transcript names HTTP/2 and the stream in a note after it.
enum HTTP2RequestHead {
    /// Fields HTTP/2 forbids (§8.2.2): a response's are left out, a request's make it malformed.
    static let connectionSpecific: [[UInt8]] = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"].map { Array($0.utf8) }

    /// The request, or a stream error (PROTOCOL_ERROR) naming what is wrong with its fields.
    ///
    /// It runs once per request, so it reads names as bytes and writes the request's bytes directly
    /// (a text built by interpolation and converted afterwards was 12% of the server's CPU under h2load).
    static func request(fields: [HPACKHeader], body: [UInt8], streamID: UInt32) throws(HTTP2Error) -> HTTPMockRequest {
        var method: String?
        var path: String?
        var authority: String?
        var headers = HTTPHeaders()
        var hasHost = false
        var cookies: [String] = []
        var sawRegularField = false
        var textSize = 16 + body.count
        for field in fields {
            textSize += field.name.count + field.value.count + 4
            if field.name.first == UInt8(ascii: ":") {
                guard !sawRegularField else {
                    throw HTTP2Error(.protocolError, stream: streamID, "the pseudo-header \(text(field.name)) on stream \(streamID) comes after a regular field")
                }
                switch field.name {
                case Names.method: method = text(field.value)
                case Names.path: path = text(field.value)
                case Names.authority: authority = text(field.value)
                case Names.scheme, Names.protocol: break
                default: throw HTTP2Error(.protocolError, stream: streamID, "an unknown pseudo-header \(text(field.name)) on stream \(streamID)")
                }
                continue
            }
            sawRegularField = true
            guard isLowercase(field.name), !connectionSpecific.contains(field.name) else {
                throw HTTP2Error(.protocolError, stream: streamID, "the field \(text(field.name)) on stream \(streamID) is not allowed in HTTP/2")
            }
            if field.name == Names.cookie {
                cookies.append(text(field.value))
            } else {
                if field.name == Names.host { hasHost = true }
                headers.add(name: text(field.name), value: text(field.value))
            }
        }
        guard let method, let path, !path.isEmpty || method == "CONNECT" else {
            throw HTTP2Error(.protocolError, stream: streamID, "stream \(streamID)'s request has no :method or :path")
        }
        var all = HTTPHeaders()
        if let authority, !hasHost { all.add(name: "Host", value: authority) }
        for field in headers { all.add(name: field.name, value: field.value) }
        if !cookies.isEmpty { all.add(name: "cookie", value: cookies.joined(separator: "; ")) }
        if !body.isEmpty, !all.contains("content-length") { all.add(name: "content-length", value: String(body.count)) }
        // The request as HTTP/1.1 would have carried it: `METHOD PATH HTTP/1.1`, the fields, a blank line.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(textSize + (authority?.utf8.count ?? 0) + 32)
        bytes.append(contentsOf: method.utf8)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: path.utf8)
        bytes.append(contentsOf: " HTTP/1.1\r\n".utf8)
        for field in all {
            bytes.append(contentsOf: field.name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: field.value.utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        bytes.append(contentsOf: "\r\n".utf8)
        let headCount = bytes.count
        bytes.append(contentsOf: body)
        return HTTPMockRequest(method: method, target: path, version: "HTTP/1.1", headers: all, input: InputUnit(bytes: bytes),
                               body: .range(headCount..<bytes.count))
    }

    /// `:status`, a response's first field.
    static let statusName = Array(":status".utf8)

    /// A response field's name as HTTP/2 sends it: in lower case (ASCII letters lowered byte by
    /// byte; a name with other bytes than ASCII, through its text).
    static func lowercasedName(_ name: String) -> [UInt8] {
        var bytes = Array(name.utf8)
        for index in bytes.indices {
            let byte = bytes[index]
            if byte >= 0x80 { return Array(name.lowercased().utf8) }
            if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { bytes[index] = byte + 0x20 }
        }
        return bytes
    }

    /// Whether a name has no upper-case letter: no ASCII one, and (only when it has other bytes than
    /// ASCII) none as its text.
    private static func isLowercase(_ name: [UInt8]) -> Bool {
        var ascii = true
        for byte in name {
            if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { return false }
            if byte >= 0x80 { ascii = false }
        }
        if ascii { return true }
        let name = text(name)
        return name.lowercased() == name
    }

    /// A field's bytes as text (invalid UTF-8 repaired).
    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The names a request's fields are compared with, as bytes.
    private enum Names {
        static let method = Array(":method".utf8)
        static let path = Array(":path".utf8)
        static let authority = Array(":authority".utf8)
        static let scheme = Array(":scheme".utf8)
        static let `protocol` = Array(":protocol".utf8)
        static let cookie = Array("cookie".utf8)
        static let host = Array("host".utf8)
    }
}
