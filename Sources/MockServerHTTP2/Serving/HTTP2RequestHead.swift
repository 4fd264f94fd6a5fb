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
    /// It runs once per request, so it reads the fields in one pass over their bytes (pseudo-headers
    /// told apart by their bytes, no dictionary) and writes the request's bytes directly: a text
    /// built by interpolation was 12% of the server's CPU under h2load, and reading the fields into
    /// a dictionary and two lists of headers was 32,000 instructions of a gRPC call's 114,000
    /// (callgrind, Benchmarks/grpc-unary; 11,000 now).
    ///
    /// With `withoutBody`, the head of a request whose body is not read (one refused for its
    /// length): its `content-length` is not checked against the body.
    static func request(fields: [HPACKHeader], body: [UInt8], streamID: UInt32, withoutBody: Bool = false) throws(HTTP2Error) -> HTTPMockRequest {
        func malformed(_ reason: String) -> HTTP2Error {
            HTTP2Error(.protocolError, stream: streamID, "stream \(streamID)'s request is malformed: \(reason)")
        }
        var method: String?, path: String?, authority: String?
        var hasScheme = false, hasProtocol = false
        var headers = HTTPHeaderFields()
        headers.reserveCapacity(fields.count + 2)
        var cookies: [String] = []
        var sawRegularField = false
        // A `host` field takes the place of the `Host` made from `:authority` (names are checked to
        // be lower case, so a byte comparison finds it).
        let hasHost = fields.contains { $0.name == hostName }
        var firstHost: [UInt8]?
        var firstLength: [UInt8]?
        var lengthsDiffer = false
        for field in fields {
            try check(field, streamID: streamID)
            if field.name.first == UInt8(ascii: ":") {
                var name: String { String(decoding: field.name, as: UTF8.self) }
                guard !sawRegularField else { throw malformed("the pseudo-header \(name) comes after a regular field") }
                let value = String(decoding: field.value, as: UTF8.self)
                let repeated: Bool
                switch field.name {
                case methodName: repeated = method != nil; method = value
                case schemeName: repeated = hasScheme; hasScheme = true
                case pathName: repeated = path != nil; path = value
                case authorityName: repeated = authority != nil; authority = value
                case protocolName: repeated = hasProtocol; hasProtocol = true
                default: throw malformed("an unknown pseudo-header \(name)")
                }
                guard !repeated else { throw malformed("\(name) twice") }
                continue
            }
            if !sawRegularField {
                sawRegularField = true
                if let authority, !hasHost { headers.add(name: "Host", value: authority) }
            }
            switch field.name {
            case cookieName:
                cookies.append(String(decoding: field.value, as: UTF8.self))
                continue
            case hostName:
                if firstHost == nil { firstHost = field.value }
            case contentLengthName:
                if let firstLength { lengthsDiffer = lengthsDiffer || firstLength != field.value } else { firstLength = field.value }
            default:
                break
            }
            headers.add(name: String(decoding: field.name, as: UTF8.self), value: String(decoding: field.value, as: UTF8.self))
        }
        if !sawRegularField, let authority, !hasHost { headers.add(name: "Host", value: authority) }
        guard let method else { throw malformed("no :method") }
        let target: String
        if method == "CONNECT", !hasProtocol {
            // §8.5: a CONNECT names only its authority.
            guard let authority else { throw malformed("a CONNECT without :authority") }
            target = path ?? authority
        } else {
            guard hasScheme else { throw malformed("no :scheme") }
            guard let path else { throw malformed("no :path") }
            guard !path.isEmpty else { throw malformed("an empty :path") }
            target = path
        }
        if let authority, let firstHost, case let host = String(decoding: firstHost, as: UTF8.self), host != authority {
            throw malformed("Host \(host) is not its :authority \(authority)")
        }
        if let firstLength, !withoutBody {
            guard !lengthsDiffer, let length = Int(String(decoding: firstLength, as: UTF8.self)), length == body.count else {
                let lengths = fields.filter { $0.name == contentLengthName }.map { String(decoding: $0.value, as: UTF8.self) }
                throw malformed("content-length \(lengths.joined(separator: ", ")) with \(body.count) bytes of DATA")
            }
        }
        if !cookies.isEmpty { headers.add(name: "cookie", value: cookies.joined(separator: "; ")) }
        if !body.isEmpty, firstLength == nil { headers.add(name: "content-length", value: String(body.count)) }
        // The request as HTTP/1.1 would have carried it: `METHOD PATH HTTP/1.1`, the fields, a blank line.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fields.reduce(48 + body.count + method.utf8.count + target.utf8.count) { $0 + $1.name.count + $1.value.count + 4 })
        bytes.append(contentsOf: method.utf8)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: target.utf8)
        bytes.append(contentsOf: " HTTP/1.1\r\n".utf8)
        headers.write(to: &bytes)
        bytes.append(contentsOf: "\r\n".utf8)
        let headCount = bytes.count
        bytes.append(contentsOf: body)
        // No `Connection` field can be among them (refused above): the request is HTTP/1.1's persistent one.
        return HTTPMockRequest(method: method, target: target, version: "HTTP/1.1", headers: headers, input: InputUnit(bytes: bytes),
                               body: .range(headCount..<bytes.count), withoutConnectionField: true)
    }

    private static let methodName = Array(":method".utf8)
    private static let schemeName = Array(":scheme".utf8)
    /// The `:path` pseudo-header's name (the driver reads it alone to learn whether a request may stream).
    static let pathName = Array(":path".utf8)
    private static let authorityName = Array(":authority".utf8)
    private static let protocolName = Array(":protocol".utf8)
    private static let hostName = Array("host".utf8)
    private static let cookieName = Array("cookie".utf8)
    private static let contentLengthName = Array("content-length".utf8)

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
