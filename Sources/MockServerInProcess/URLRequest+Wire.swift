import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerHTTP

extension URLRequest {
    /// The request as HTTP/1.1 bytes, the way a client sends it: the target percent-encoded as in
    /// the URL, `Host`, the request's headers, then the route's additional headers and (when
    /// `addingStoredCookies`) stored cookies where the request has none, and `Content-Length` for
    /// a body (read from `httpBodyStream` when URLSession handed the body that way).
    ///
    /// Written into one buffer of the exact size, the `Host` field and the target copied straight
    /// from the URL's string: no `String` of the target, no buffer grown or over-reserved. Returned
    /// with where the request line and the head end, and the fields the head carries in order, for
    /// ``HTTPRequestParser/request(bytes:requestLineLength:headLength:headers:)``.
    func wireRequest(route: InProcessRoute, addingStoredCookies: Bool) -> (bytes: [UInt8], requestLineLength: Int, headLength: Int, headers: HTTPHeaderFields) {
        let given = httpMethod ?? "GET"
        // Most methods are upper-case already: no new string for them.
        let method = given.utf8.contains { $0 >= UInt8(ascii: "a") } ? given.uppercased() : given
        let body = wireBody
        let headerFields = allHTTPHeaderFields ?? [:]
        let fields = headerFields.count > 1 ? headerFields.sorted { $0.key < $1.key } : Array(headerFields)
        // No URL reads as an empty string: no host, the target `/`.
        var absolute = url?.absoluteString ?? ""
        return absolute.withUTF8 { text in
            let address = WireAddress.Parts(text)
            let writesHost = address.host != nil && !fields.contains { $0.key.equalsIgnoringASCIICase("host") }
            // The fields after the request's own; few, and usually none. Passed to `has` rather
            // than captured: a captured variable is boxed, and each access to it checked at run time.
            var added: [(name: String, value: String)] = []
            func has(_ name: String, _ added: [(name: String, value: String)]) -> Bool {
                (writesHost && name.equalsIgnoringASCIICase("host")) || fields.contains { $0.key.equalsIgnoringASCIICase(name) }
                    || added.contains { $0.name.equalsIgnoringASCIICase(name) }
            }
            for header in route.additionalHeaders where !has(header.name, added) { added.append((header.name, header.value)) }
            if addingStoredCookies, httpShouldHandleCookies, !has("cookie", added), let url, let cookie = route.cookies.header(for: url) {
                added.append(("Cookie", cookie))
            }
            if !has("content-length", added) && !has("transfer-encoding", added) && (!body.isEmpty || Self.sendsLength(method)) {
                added.append(("Content-Length", String(body.count)))
            }
            // `NAME: VALUE\r\n`
            func fieldSize(_ name: String, _ value: String) -> Int { name.utf8.count + value.utf8.count + 4 }
            var size = method.utf8.count + 1 + (address.target.map { $0.count + (address.targetNeedsSlash ? 1 : 0) } ?? 1) + Self.version.count
            let requestLineLength = size - 2
            var headers = HTTPHeaderFields()
            headers.reserveCapacity(fields.count + added.count + 1)
            if writesHost, let host = address.host {
                size += Self.hostName.count + host.count + 2
                headers.add(name: "Host", value: String(decoding: UnsafeBufferPointer(rebasing: text[host]), as: UTF8.self))
            }
            for (name, value) in fields {
                size += fieldSize(name, value)
                headers.add(name: name, value: value)
            }
            for (name, value) in added {
                size += fieldSize(name, value)
                headers.add(name: name, value: value)
            }
            size += 2 + body.count
            let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                var at = 0
                func put(_ bytes: some Collection<UInt8>) {
                    at = UnsafeMutableBufferPointer(rebasing: buffer[at...]).initialize(fromContentsOf: bytes) + at
                }
                func putLineEnd() {
                    buffer[at] = 0x0D
                    buffer[at + 1] = 0x0A
                    at += 2
                }
                func putField(_ name: String, _ value: String) {
                    put(name.utf8)
                    buffer[at] = UInt8(ascii: ":")
                    buffer[at + 1] = 0x20
                    at += 2
                    put(value.utf8)
                    putLineEnd()
                }
                put(method.utf8)
                buffer[at] = 0x20
                at += 1
                if let target = address.target {
                    if address.targetNeedsSlash {
                        buffer[at] = UInt8(ascii: "/")
                        at += 1
                    }
                    put(UnsafeBufferPointer(rebasing: text[target]))
                } else {
                    buffer[at] = UInt8(ascii: "/")
                    at += 1
                }
                put(Self.version)
                if writesHost, let host = address.host {
                    put(Self.hostName)
                    put(UnsafeBufferPointer(rebasing: text[host]))
                    putLineEnd()
                }
                for (name, value) in fields { putField(name, value) }
                for (name, value) in added { putField(name, value) }
                putLineEnd()
                put(body)
                precondition(at == size, "the request's bytes were counted wrong")
                count = at
            }
            return (bytes, requestLineLength, size - body.count, headers)
        }
    }

    /// ` HTTP/1.1\r\n`, as bytes.
    private static let version = Array(" HTTP/1.1\r\n".utf8)
    /// `Host: `, as bytes.
    private static let hostName = Array("Host: ".utf8)

    /// Whether a request with `method` (upper-case) sends `Content-Length: 0` for an empty body, as
    /// URLSession does.
    private static func sendsLength(_ method: String) -> Bool {
        switch method {
        case "POST", "PUT", "PATCH": true
        default: false
        }
    }

    /// The body, from `httpBody` or read to its end from `httpBodyStream`.
    private var wireBody: [UInt8] {
        if let httpBody { return Array(httpBody) }
        guard let stream = httpBodyStream else { return [] }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        stream.open()
        defer { stream.close() }
        while true {
            let count = chunk.withUnsafeMutableBufferPointer { stream.read($0.baseAddress!, maxLength: $0.count) }
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return bytes
    }
}
