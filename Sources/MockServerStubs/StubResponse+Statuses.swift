import Foundation
import MockServerHTTP

/// The answers a test reaches for by name, as Vapor's `HTTPStatus`, Hummingbird's and WireMock's
/// spell them: each bare name an empty body (`.notFound`), each `json:` a JSON body
/// (`.created(json: ["id": 1])`), beside the text ones (`.notFound(body: "…")`).
extension Stub.Response {
    /// 200 OK, no body.
    public static var ok: Stub.Response { .status(200) }
    /// 201 Created, no body.
    public static var created: Stub.Response { .status(201) }
    /// 204 No Content.
    public static var noContent: Stub.Response { .status(204) }
    /// 400 Bad Request, no body.
    public static var badRequest: Stub.Response { .status(400) }
    /// 401 Unauthorized, no body.
    public static var unauthorized: Stub.Response { .status(401) }
    /// 403 Forbidden, no body.
    public static var forbidden: Stub.Response { .status(403) }
    /// 404 Not Found, no body.
    public static var notFound: Stub.Response { .status(404) }
    /// 409 Conflict, no body.
    public static var conflict: Stub.Response { .status(409) }
    /// 500 Internal Server Error, no body.
    public static var serverError: Stub.Response { .status(500) }

    /// 201 Created with `json` as an `application/json` body, and `headers` (a `Location`, say).
    public static func created(json: Any, headers: HTTPHeaderFields = [:]) -> Stub.Response {
        ok(json: json, status: 201).adding(headers)
    }

    /// 202 Accepted with a text body.
    public static func accepted(body: String = "", headers: HTTPHeaderFields = [:]) -> Stub.Response { .status(202, body: body, headers: headers) }

    /// 400 Bad Request with `json` as an `application/json` body (a validation error, say).
    public static func badRequest(json: Any) -> Stub.Response { ok(json: json, status: 400) }

    /// 401 Unauthorized with `json` as an `application/json` body.
    public static func unauthorized(json: Any) -> Stub.Response { ok(json: json, status: 401) }

    /// 403 Forbidden with a text body.
    public static func forbidden(body: String = "") -> Stub.Response { .status(403, body: body) }

    /// 403 Forbidden with `json` as an `application/json` body.
    public static func forbidden(json: Any) -> Stub.Response { ok(json: json, status: 403) }

    /// 404 Not Found with `json` as an `application/json` body.
    public static func notFound(json: Any) -> Stub.Response { ok(json: json, status: 404) }

    /// 409 Conflict with a text body.
    public static func conflict(body: String = "") -> Stub.Response { .status(409, body: body) }

    /// 409 Conflict with `json` as an `application/json` body.
    public static func conflict(json: Any) -> Stub.Response { ok(json: json, status: 409) }

    /// 422 Unprocessable Content with `json` as an `application/json` body (a validation error).
    public static func unprocessable(json: Any) -> Stub.Response { ok(json: json, status: 422) }

    /// 500 Internal Server Error with `json` as an `application/json` body.
    public static func serverError(json: Any) -> Stub.Response { ok(json: json, status: 500) }

    /// 429 Too Many Requests, with `Retry-After: seconds` when given: a client's back-off.
    public static func tooManyRequests(retryAfter seconds: Int? = nil) -> Stub.Response {
        .status(429, headers: seconds.map { ["Retry-After": String($0)] } ?? [:])
    }

    /// 503 Service Unavailable, with `Retry-After: seconds` when given.
    public static func serviceUnavailable(retryAfter seconds: Int? = nil) -> Stub.Response {
        .status(503, headers: seconds.map { ["Retry-After": String($0)] } ?? [:])
    }

    /// A redirect to `location` (`302 Found` unless `status` says otherwise: 301, 303, 307, 308).
    public static func redirect(to location: String, status: Int = 302) -> Stub.Response {
        .status(status, headers: ["Location": location])
    }

    /// The same response with `headers` added after its own.
    private func adding(_ headers: HTTPHeaderFields) -> Stub.Response {
        var copy = self
        for field in headers { copy.headers.add(name: field.name, value: field.value) }
        return copy
    }
}
