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

    /// The request, or a stream error (PROTOCOL_ERROR) naming what makes it malformed (§8.1.1): a
    /// field name or value HTTP/2 does not allow (§8.2), a connection-specific field or `te` other
    /// than `trailers` (§8.2.2), a pseudo-header unknown, repeated or after a regular field, one of
    /// `:method`, `:scheme` and `:path` missing or `:path` empty, a `Host` other than `:authority`
    /// (§8.3.1), or a `content-length` the body's length does not match (§8.1.1).
    ///
    /// It runs once per request, so it writes the request's bytes directly (a text built by
    /// interpolation and converted afterwards was 12% of the server's CPU under h2load).
    static func request(fields: [HPACKHeader], body: [UInt8], streamID: UInt32) throws(HTTP2Error) -> HTTPMockRequest {
        var pseudo: [String: String] = [:]
        var headers = HTTPHeaderFields()
        var cookies: [String] = []
        var sawRegularField = false
        func malformed(_ reason: String) -> HTTP2Error {
            HTTP2Error(.protocolError, stream: streamID, "stream \(streamID)'s request is malformed: \(reason)")
        }
        for field in fields {
            try check(field, streamID: streamID)
            let name = String(decoding: field.name, as: UTF8.self)
            let value = String(decoding: field.value, as: UTF8.self)
            if name.hasPrefix(":") {
                guard !sawRegularField else { throw malformed("the pseudo-header \(name) comes after a regular field") }
                guard requestPseudoHeaders.contains(name) else { throw malformed("an unknown pseudo-header \(name)") }
                guard pseudo.updateValue(value, forKey: name) == nil else { throw malformed("\(name) twice") }
                continue
            }
            sawRegularField = true
            if name == "cookie" { cookies.append(value) } else { headers.add(name: name, value: value) }
        }
        guard let method = pseudo[":method"] else { throw malformed("no :method") }
        let authority = pseudo[":authority"]
        let path: String
        if method == "CONNECT", pseudo[":protocol"] == nil {
            // §8.5: a CONNECT names only its authority.
            guard let authority else { throw malformed("a CONNECT without :authority") }
            path = pseudo[":path"] ?? authority
        } else {
            guard pseudo[":scheme"] != nil else { throw malformed("no :scheme") }
            guard let value = pseudo[":path"] else { throw malformed("no :path") }
            guard !value.isEmpty else { throw malformed("an empty :path") }
            path = value
        }
        if let authority, let host = headers["host"], host != authority {
            throw malformed("Host \(host) is not its :authority \(authority)")
        }
        let lengths = headers.values(for: "content-length")
        if !lengths.isEmpty {
            guard Set(lengths).count == 1, let length = Int(lengths[0]), length == body.count else {
                throw malformed("content-length \(lengths.joined(separator: ", ")) with \(body.count) bytes of DATA")
            }
        }
        var all = HTTPHeaderFields()
        if let authority, !headers.contains("host") { all.add(name: "Host", value: authority) }
        for field in headers { all.add(name: field.name, value: field.value) }
        if !cookies.isEmpty { all.add(name: "cookie", value: cookies.joined(separator: "; ")) }
        if !body.isEmpty, !all.contains("content-length") { all.add(name: "content-length", value: String(body.count)) }
        // The request as HTTP/1.1 would have carried it: `METHOD PATH HTTP/1.1`, the fields, a blank line.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fields.reduce(48 + body.count + method.utf8.count + path.utf8.count) { $0 + $1.name.count + $1.value.count + 4 })
        bytes.append(contentsOf: method.utf8)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: path.utf8)
        bytes.append(contentsOf: " HTTP/1.1\r\n".utf8)
        all.write(to: &bytes)
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

    /// Checks a request's trailers (§8.1): regular fields only, each one HTTP/2 allows.
    static func checkTrailers(_ fields: [HPACKHeader], streamID: UInt32) throws(HTTP2Error) {
        for field in fields {
            try check(field, streamID: streamID)
            guard field.name.first != UInt8(ascii: ":") else {
                throw HTTP2Error(.protocolError, stream: streamID, "stream \(streamID)'s trailers carry the pseudo-header \(String(decoding: field.name, as: UTF8.self))")
            }
        }
    }

    /// The pseudo-headers a request may carry (§8.3.1; `:protocol` is RFC 8441's extended CONNECT).
    static let requestPseudoHeaders: Set<String> = [":method", ":scheme", ":path", ":authority", ":protocol"]

    /// Checks one field as §8.2 asks: a name of lower-case token characters (after a pseudo-header's
    /// colon), no connection-specific field, `te` only as `trailers`, and a value without NUL, CR or
    /// LF and without white space at either end.
    static func check(_ field: HPACKHeader, streamID: UInt32) throws(HTTP2Error) {
        let name = field.name.first == UInt8(ascii: ":") ? field.name.dropFirst() : field.name[...]
        // The name as text, for an error's message only: this check runs on every field of every request.
        var text: String { String(decoding: field.name, as: UTF8.self) }
        guard !name.isEmpty, name.allSatisfy(isLowerCaseTokenByte) else {
            throw HTTP2Error(.protocolError, stream: streamID, "the field name \(text.debugDescription) on stream \(streamID) is not a lower-case token")
        }
        guard !connectionSpecific.contains(field.name) else {
            throw HTTP2Error(.protocolError, stream: streamID, "the connection-specific field \(text) on stream \(streamID) is not allowed in HTTP/2")
        }
        guard field.name != teName || field.value == trailersValue else {
            throw HTTP2Error(.protocolError, stream: streamID, "te on stream \(streamID) is not \"trailers\"")
        }
        let value = field.value
        func isWhiteSpace(_ byte: UInt8?) -> Bool { byte == 0x20 || byte == 0x09 }
        guard !value.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D }), !isWhiteSpace(value.first), !isWhiteSpace(value.last) else {
            throw HTTP2Error(.protocolError, stream: streamID, "the value of \(text) on stream \(streamID) has NUL, CR, LF or white space at an end")
        }
    }

    private static let teName = Array("te".utf8)
    private static let trailersValue = Array("trailers".utf8)

    /// Whether `byte` is one of RFC 9110's token characters (§5.6.2, HTTP/1.1's check) other than an
    /// upper-case letter.
    @inline(__always)
    private static func isLowerCaseTokenByte(_ byte: UInt8) -> Bool {
        HTTPSyntax.isTokenByte(byte) && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
