import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerHTTP

extension URLRequest {
    /// The request as HTTP/1.1 bytes, the way a client sends it: the target percent-encoded as in
    /// the URL, `Host`, the request's headers, then the route's additional headers and stored
    /// cookies where the request has none, and `Content-Length` for a body (read from
    /// `httpBodyStream` when URLSession handed the body that way).
    func wireBytes(route: InProcessRoute) -> [UInt8] {
        let method = (httpMethod ?? "GET").uppercased()
        var head = "\(method) \(wireTarget) HTTP/1.1\r\n"
        var present = Set<String>()
        func add(_ name: String, _ value: String) {
            head += "\(name): \(value)\r\n"
            present.insert(name.lowercased())
        }
        let fields = (allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }
        if !fields.contains(where: { $0.key.equalsIgnoringASCIICase("host") }), let host = wireHost { add("Host", host) }
        for (name, value) in fields { add(name, value) }
        for header in route.additionalHeaders where !present.contains(header.name.lowercased()) { add(header.name, header.value) }
        if httpShouldHandleCookies, !present.contains("cookie"), let url, let cookies = route.cookieStorage?.cookies(for: url), !cookies.isEmpty,
           let cookie = HTTPCookie.requestHeaderFields(with: cookies)["Cookie"] {
            add("Cookie", cookie)
        }
        let body = wireBody
        if !present.contains("content-length") && !present.contains("transfer-encoding")
            && (!body.isEmpty || ["POST", "PUT", "PATCH"].contains(method)) {
            add("Content-Length", String(body.count))
        }
        return Array((head + "\r\n").utf8) + body
    }

    /// The path and query as in the URL (percent-encoded, as the absolute string spells them), `/`
    /// for none. Read off the absolute string: parsing it again into components costs more than
    /// the rest of the request.
    private var wireTarget: String {
        guard let url else { return "/" }
        let text = url.absoluteString.utf8
        // After `scheme://authority`: the first `/` or `?`; the target ends at a `#`.
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else { return "/" }
        var start = text.index(after: colon)
        if text[start...].starts(with: "//".utf8) {
            start = text.index(start, offsetBy: 2)
            start = text[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? text.endIndex
        }
        let end = text[start...].firstIndex(of: UInt8(ascii: "#")) ?? text.endIndex
        let target = String(Substring(text[start..<end]))
        if target.isEmpty { return "/" }
        return target.utf8.first == UInt8(ascii: "/") ? target : "/" + target
    }

    /// `host` or `host:port` when the port is not the scheme's default.
    private var wireHost: String? {
        guard let url, let host = url.host else { return nil }
        let bracketed = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        guard let port = url.port else { return bracketed }
        let standard = url.scheme?.lowercased() == "https" ? 443 : 80
        return port == standard ? bracketed : "\(bracketed):\(port)"
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
