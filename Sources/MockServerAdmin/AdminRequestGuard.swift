import Foundation
import MockServerCore
import MockServerEngine
import MockServerHTTP

/// What keeps web pages other than the dashboard away from the control API.
///
/// A page the developer has open in a browser can send requests to `127.0.0.1`: a form or a
/// `fetch` with `mode: "no-cors"` reaches the API without asking first, and a page whose host name
/// is rebound to `127.0.0.1` (DNS rebinding) can even read the answers. So the API answers only
/// requests that
/// - name the admin address in `Host`: `127.0.0.1:PORT`, `localhost:PORT` or `[::1]:PORT` (the
///   port may be left out only when it is 80), which a rebound host name never does;
/// - carry no `Origin`, or the dashboard's own (`http://` and one of those hosts);
/// - when they change something (`POST`, `PUT`, `DELETE`) and carry a body, say what it is with a
///   `Content-Type` that a page cannot send across sites without the browser asking the API first
///   (which it never allows): `application/json`, or `application/octet-stream` for bytes. The
///   three types a form can send (`text/plain`, `application/x-www-form-urlencoded`,
///   `multipart/form-data`) and a body without a type are refused.
///
/// A refusal is a `403` whose `error` names the reason.
struct AdminRequestGuard: Sendable {
    /// The admin port, which `Host` and `Origin` must name.
    let port: UInt16

    /// The media types a page may send across sites without a preflight request (the Fetch
    /// standard's CORS-safelisted `Content-Type` values).
    static let formTypes: Set<String> = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]

    /// The reason `request` is refused, or `nil` when it may be answered.
    func refusal(of request: HTTPMockRequest) -> String? {
        guard let host = request.headers["Host"] else {
            return "the request has no Host header; the control API answers only Host \(allowedHosts.joined(separator: ", "))"
        }
        guard isAllowed(host: host) else {
            return "Host \(host) is not the control API's address; it answers only Host \(allowedHosts.joined(separator: ", "))"
        }
        if let origin = request.headers["Origin"], !isAllowed(origin: origin) {
            return "Origin \(origin) is another site; the control API answers only its own page (\(allowedOrigins.joined(separator: ", "))) and clients that send no Origin"
        }
        guard ["POST", "PUT", "DELETE", "PATCH"].contains(request.method), request.hasBody, !request.body.isEmpty else { return nil }
        guard let contentType = request.headers["Content-Type"] else {
            return "\(request.method) \(request.path) has a body but no Content-Type; send JSON as application/json (bytes as application/octet-stream)"
        }
        let media = Self.mediaType(contentType)
        if Self.formTypes.contains(media) {
            return "\(request.method) \(request.path) has Content-Type \(media), which any web page can send; send JSON as application/json (bytes as application/octet-stream)"
        }
        return nil
    }

    /// `text/plain` for `Text/Plain; charset=utf-8`.
    static func mediaType(_ contentType: String) -> String {
        let type = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return type.trimmingSpaces().lowercased()
    }

    /// The `Host` values the API answers, as a refusal lists them.
    var allowedHosts: [String] { ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"] }

    /// The origins of the dashboard.
    var allowedOrigins: [String] { allowedHosts.map { "http://" + $0 } }

    /// Whether `host` (a `Host` value) names the admin address.
    func isAllowed(host: String) -> Bool {
        let value = host.trimmingSpaces().lowercased()
        if allowedHosts.contains(value) { return true }
        return port == 80 && ["127.0.0.1", "localhost", "[::1]"].contains(value)
    }

    /// Whether `origin` (an `Origin` value) is the dashboard's.
    func isAllowed(origin: String) -> Bool {
        let value = origin.trimmingSpaces().lowercased()
        guard value.hasPrefix("http://") else { return false }
        return isAllowed(host: String(value.dropFirst("http://".count)))
    }
}
