import MockServerCore

/// Cross-origin access to gRPC-Web calls, so that a page served from another origin can call the
/// mock with `fetch()`: the answer to a browser's preflight, and the fields that let its script read
/// an answer's status and metadata (the Fetch standard's CORS protocol). Pure code.
package enum GRPCWebCORS {
    /// The fields a gRPC-Web answer's script may read besides the safe ones: the status and its details.
    package static let exposedFields = ["grpc-status", "grpc-message", "grpc-status-details-bin"]
    /// The request fields a preflight that names none is allowed: those gRPC-Web clients send.
    package static let defaultAllowedFields = "content-type,x-grpc-web,x-user-agent,grpc-timeout"
    /// How long, in seconds, a browser may keep a preflight's answer (Chromium keeps it 2 hours at most).
    package static let maxAge = 86400

    /// Whether `request` is a CORS preflight: an `OPTIONS` with `Access-Control-Request-Method`.
    package static func isPreflight(_ request: HTTPMockRequest) -> Bool {
        request.method == "OPTIONS" && request.headers.contains("Access-Control-Request-Method")
    }

    /// The method a preflight asks for (`POST`), upper-cased; `nil` when `request` is not a preflight.
    package static func requestedMethod(of request: HTTPMockRequest) -> String? {
        guard isPreflight(request) else { return nil }
        return request.headers["Access-Control-Request-Method"]?.trimmingSpaces().uppercased()
    }

    /// The answer to a preflight for a gRPC-Web call: `204` allowing the request's origin (any, `*`,
    /// when it names none), `POST`, the fields it asks for (or ``defaultAllowedFields``), for
    /// ``maxAge`` seconds.
    package static func preflightResponse(to request: HTTPMockRequest) -> HTTPMockResponse {
        var headers = HTTPHeaderFields()
        headers.add(name: "Access-Control-Allow-Origin", value: request.headers["Origin"] ?? "*")
        headers.add(name: "Access-Control-Allow-Methods", value: "POST")
        headers.add(name: "Access-Control-Allow-Headers", value: request.headers["Access-Control-Request-Headers"] ?? defaultAllowedFields)
        headers.add(name: "Access-Control-Max-Age", value: String(maxAge))
        headers.add(name: "Vary", value: "Origin, Access-Control-Request-Headers")
        return HTTPMockResponse(status: 204, headers: headers)
    }

    /// The fields an answer to a cross-origin call (one with an `Origin`) carries besides `headers`,
    /// those of the answer: its origin allowed, and the status fields and `headers`' own names
    /// exposed to the page's script. None when the call has no `Origin`, and none that `headers`
    /// sets itself.
    package static func answerFields(for request: HTTPMockRequest?, headers: HTTPHeaderFields) -> HTTPHeaderFields {
        var fields = HTTPHeaderFields()
        guard let origin = request?.headers["Origin"] else { return fields }
        if !headers.contains("Access-Control-Allow-Origin") {
            fields.add(name: "Access-Control-Allow-Origin", value: origin)
            fields.add(name: "Vary", value: "Origin")
        }
        if !headers.contains("Access-Control-Expose-Headers") {
            var names = exposedFields
            for field in headers where !field.name.lowercased().hasPrefix("access-control-") && !names.contains(field.name.lowercased()) {
                names.append(field.name.lowercased())
            }
            fields.add(name: "Access-Control-Expose-Headers", value: names.joined(separator: ","))
        }
        return fields
    }
}
