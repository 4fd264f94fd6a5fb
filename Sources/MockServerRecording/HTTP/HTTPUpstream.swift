import Foundation
import MockServerCore
import MockServerHTTP
import MockServerHTTP2
import MockServerTLS

/// The server a recording forwards HTTP requests to, from a URL such as `http://127.0.0.1:8080`,
/// `https://api.example.com` or `http://localhost:8080/api` (a path is put before every request's path);
/// `h2c://127.0.0.1:50051` speaks HTTP/2 with prior knowledge, for an upstream that speaks nothing else.
package struct HTTPUpstream: Sendable, Equatable {
    /// Whether requests go over TLS (`https`).
    package let isTLS: Bool
    /// Whether requests go as HTTP/2 with prior knowledge (`h2c`), each on a connection of its own.
    package let isHTTP2: Bool
    /// The PEM file of the CAs an `https` upstream's certificate must chain to; `nil` for the system's store.
    package let caFile: String?
    /// The client context of an `https` upstream.
    package let tls: TLSClientContext?
    /// The host as given.
    package let host: String
    /// The port (80, or 443 for `https`, when the URL has none).
    package let port: UInt16
    /// The path put before each request's path, without a trailing `/` (empty for none).
    package let basePath: String
    /// The address the host resolved to when the upstream was made.
    package let address: NetworkAddress
    /// `host:port` as a `Host` header writes it (made once: every forwarded request sends it).
    package let authority: String

    /// The upstream at `url`, its host resolved now.
    ///
    /// - Parameters:
    ///   - url: `http://HOST[:PORT][/PATH]`, `https://…` or `h2c://…`.
    ///   - caFile: for `https`, a PEM file of the CAs to trust instead of the system's store.
    /// - Throws: ``RecordingError/badUpstream(_:reason:)`` for a URL that is not `http(s)://HOST[:PORT][/PATH]` or `h2c://…`,
    ///   whose host does not resolve, or whose TLS cannot be set up (no OpenSSL, an unreadable CA file).
    package init(url: URL, caFile: String? = nil) throws(RecordingError) {
        let text = url.absoluteString
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let scheme = components.scheme?.lowercased() else {
            throw .badUpstream(text, reason: "not a URL")
        }
        guard ["http", "https", "h2c"].contains(scheme) else {
            throw .badUpstream(text, reason: "the scheme must be http, https or h2c (tcp:// is recorded as a script)")
        }
        isTLS = scheme == "https"
        isHTTP2 = scheme == "h2c"
        if caFile != nil && !isTLS { throw .badUpstream(text, reason: "a CA file is for https upstreams") }
        self.caFile = caFile
        guard let host = components.host, !host.isEmpty else { throw .badUpstream(text, reason: "no host") }
        guard components.query == nil, components.fragment == nil, components.user == nil else {
            throw .badUpstream(text, reason: "an upstream has no query, fragment or user")
        }
        let port = components.port ?? (isTLS ? 443 : 80)
        guard (1...65535).contains(port) else { throw .badUpstream(text, reason: "port \(port) is out of range") }
        self.host = host
        self.port = UInt16(port)
        let bracketed = host.utf8.contains(UInt8(ascii: ":")) && !host.hasPrefix("[") ? "[\(host)]" : host
        authority = port == (isTLS ? 443 : 80) ? bracketed : "\(bracketed):\(port)"
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        basePath = path
        do {
            address = try NetworkAddress.resolving(host: host, port: UInt16(port))
        } catch {
            throw .badUpstream(text, reason: "\(error)")
        }
        do {
            tls = isTLS ? try TLSClientContext(caFile: caFile) : nil
        } catch {
            throw .badUpstream(text, reason: "\(error)")
        }
    }

    package static func == (lhs: HTTPUpstream, rhs: HTTPUpstream) -> Bool {
        lhs.host == rhs.host && lhs.port == rhs.port && lhs.basePath == rhs.basePath && lhs.isTLS == rhs.isTLS && lhs.isHTTP2 == rhs.isHTTP2
            && lhs.caFile == rhs.caFile
    }

    /// The name the upstream's certificate must be for: the host as given, without brackets.
    var serverName: String { host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host }

    /// The origin, such as `http://127.0.0.1:8080` (`h2c://…` for an HTTP/2 upstream).
    package var origin: String { "\(isTLS ? "https" : isHTTP2 ? "h2c" : "http")://\(authority)" }

    /// The bytes of `request` as sent upstream: HTTP/1.1, the target under ``basePath``, `Host` the
    /// upstream's, hop-by-hop fields dropped, the body with its true `Content-Length`.
    func forwardedBytes(of request: HTTPMockRequest) -> [UInt8] {
        // Written as bytes into one buffer: no text is made and copied for each line.
        let body = request.body
        var bytes: [UInt8] = []
        bytes.reserveCapacity(request.input.bytes.count + authority.utf8.count + basePath.utf8.count + 32)
        HTTPHeaderFields.appendUTF8(of: request.method, to: &bytes)
        bytes.append(0x20)
        let target = request.target
        if target.utf8.first == UInt8(ascii: "/") {
            // The origin form, as clients send it: the path as it came, under the base path, with no
            // `String` made of it.
            HTTPHeaderFields.appendUTF8(of: basePath, to: &bytes)
            HTTPHeaderFields.appendUTF8(of: target, to: &bytes)
        } else {
            HTTPHeaderFields.appendUTF8(of: forwardedTarget(of: request), to: &bytes)
        }
        bytes.append(contentsOf: Self.versionAndHost)
        HTTPHeaderFields.appendUTF8(of: authority, to: &bytes)
        bytes.append(0x0D)
        bytes.append(0x0A)
        HTTPHopByHop.writeEndToEnd(request.headers, dropping: HTTPHopByHop.forwardedRequest, to: &bytes)
        if !body.isEmpty || Self.saysLength(request.method) {
            bytes.append(contentsOf: "Content-Length: \(body.count)\r\n".utf8)
        }
        bytes.append(0x0D)
        bytes.append(0x0A)
        bytes.append(contentsOf: body)
        return bytes
    }

    /// What follows a forwarded request's target, up to the `Host` field's value.
    private static let versionAndHost = Array(" HTTP/1.1\r\nHost: ".utf8)

    /// Whether a forwarded request of `method` says its length even when its body is empty.
    private static func saysLength(_ method: String) -> Bool {
        switch method {
        case "POST", "PUT", "PATCH": true
        default: false
        }
    }

    /// The request's target under ``basePath``.
    private func forwardedTarget(of request: HTTPMockRequest) -> String {
        var target = AbsoluteURI.pathOnward(of: Substring(request.target))
        if target.utf8.first != UInt8(ascii: "/") { target = "/" + target }
        return basePath.isEmpty ? String(target) : basePath + target
    }

    /// `request` as an HTTP/2 upstream gets it (RFC 9113 §8.3): the pseudo-fields with the upstream's scheme and
    /// authority and the target under ``basePath``, then the end-to-end fields in lower case (`te:
    /// trailers` kept, the one value HTTP/2 allows, which gRPC servers look for); the body goes as DATA.
    func forwardedExchange(of request: HTTPMockRequest) -> HTTP2ClientExchange {
        var fields = [HPACKHeader(":method", request.method), HPACKHeader(":scheme", isTLS ? "https" : "http"), HPACKHeader(":authority", authority),
                      HPACKHeader(":path", forwardedTarget(of: request))]
        for field in HTTPHopByHop.endToEnd(request.headers, dropping: HTTPHopByHop.forwardedRequest) {
            fields.append(HPACKHeader(field.name.lowercased(), field.value))
        }
        if request.headers.hasToken("trailers", in: "TE") { fields.append(HPACKHeader("te", "trailers")) }
        return HTTP2ClientExchange(fields: fields, body: request.body)
    }
}
