import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerHTTP

/// A session's cookies as URLSession handles them: sent with a request where it has no `Cookie`
/// of its own, kept from a response's `Set-Cookie`.
struct InProcessCookies {
    /// The session's storage; `nil` when the configuration has none.
    let storage: HTTPCookieStorage?

    /// The `Cookie` value the storage has for `url`, or `nil` when it has none.
    func header(for url: URL) -> String? {
        // Every request asks, and most sessions store nothing: the list of all cookies is a
        // cheaper question than the matching of a URL against them.
        guard let storage, storage.cookies?.isEmpty == false, let cookies = storage.cookies(for: url), !cookies.isEmpty else { return nil }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

    /// Keeps the cookies of a response to `request` (its header fields `headers`, and `fields` as
    /// Foundation takes them).
    func store(from headers: HTTPHeaderFields, fields: [String: String], for request: URLRequest, url: URL) {
        // The response's own fields first: most have no `Set-Cookie`, and they are read without Foundation.
        guard headers.contains("Set-Cookie"), let storage, request.httpShouldHandleCookies else { return }
        let cookies = HTTPCookie.cookies(withResponseHeaderFields: fields, for: url)
        if !cookies.isEmpty { storage.setCookies(cookies, for: url, mainDocumentURL: request.mainDocumentURL) }
    }
}
