import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerHTTP

/// A redirect as a client follows it: where a response sends the client, and the request it
/// makes there.
struct InProcessRedirect {
    /// Redirects followed before failing, as URLSession allows.
    static let limit = 16

    /// The statuses a client follows as redirects.
    static let statuses = [301, 302, 303, 307, 308]

    /// The absolute URL the client goes to next.
    let target: URL
    /// The redirect's status code.
    let status: Int

    /// The redirect `head` makes from `url`, or `nil` for a response that is not one (not 301,
    /// 302, 303, 307 or 308, or without a `Location` that resolves against `url`).
    init?(_ head: HTTPResponseHead, from url: URL) {
        guard Self.statuses.contains(head.status), let location = head.headers["Location"],
              let target = URL(string: location, relativeTo: url)?.absoluteURL else { return nil }
        self.target = target
        self.status = head.status
    }

    /// The request a client makes for this redirect: `303`, and `301`/`302` after a `POST`, become
    /// a `GET` without a body; `307` and `308` keep method and body. `Authorization` is dropped for
    /// another host and `Cookie` always (the cookie storage adds the target's own).
    func request(following request: URLRequest) -> URLRequest {
        var next = request
        next.url = target
        let method = (request.httpMethod ?? "GET").uppercased()
        if status == 303 && method != "HEAD" || (status == 301 || status == 302) && method == "POST" {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.httpBodyStream = nil
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
            next.setValue(nil, forHTTPHeaderField: "Content-Length")
        }
        if target.host?.lowercased() != request.url?.host?.lowercased() {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        next.setValue(nil, forHTTPHeaderField: "Cookie")
        return next
    }
}
