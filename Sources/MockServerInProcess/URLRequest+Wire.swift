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
    func wireBytes(route: InProcessRoute, addingStoredCookies: Bool) -> [UInt8] {
        let given = httpMethod ?? "GET"
        // Most methods are upper-case already: no new string for them.
        let method = given.utf8.contains { $0 >= UInt8(ascii: "a") } ? given.uppercased() : given
        let body = wireBody
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512 + body.count)
        bytes += method.utf8
        bytes.append(0x20)
        let address = url.map { WireAddress(absoluteString: $0.absoluteString) } ?? WireAddress(host: nil, target: "/")
        bytes += address.target.utf8
        bytes += " HTTP/1.1\r\n".utf8
        // Few fields: a list searched without case beats a set of lower-cased copies.
        var names: [String] = []
        names.reserveCapacity(8)
        func has(_ name: String) -> Bool { names.contains { $0.equalsIgnoringASCIICase(name) } }
        func add(_ name: String, _ value: String) {
            bytes += name.utf8
            bytes += ": ".utf8
            bytes += value.utf8
            bytes += "\r\n".utf8
            names.append(name)
        }
        let headerFields = allHTTPHeaderFields ?? [:]
        let fields = headerFields.count > 1 ? headerFields.sorted { $0.key < $1.key } : Array(headerFields)
        if !fields.contains(where: { $0.key.equalsIgnoringASCIICase("host") }), let host = address.host { add("Host", host) }
        for (name, value) in fields { add(name, value) }
        for header in route.additionalHeaders where !has(header.name) { add(header.name, header.value) }
        if addingStoredCookies, httpShouldHandleCookies, !has("cookie"), let url, let cookie = route.cookies.header(for: url) {
            add("Cookie", cookie)
        }
        if !has("content-length") && !has("transfer-encoding") && (!body.isEmpty || Self.sendsLength(method)) {
            add("Content-Length", String(body.count))
        }
        bytes += "\r\n".utf8
        bytes += body
        return bytes
    }

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
