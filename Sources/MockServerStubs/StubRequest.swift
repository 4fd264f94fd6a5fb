import Foundation
import MockServerHTTP
import MockServerCore

extension Stub {
    /// What an endpoint's closure gets: the request, with Voodoo's conveniences.
    ///
    /// `headers` are looked up by name in any case, also as members: `request.headers.accept`.
    public struct Request: Sendable {
        /// The request as the server parsed it.
        public let http: HTTPMockRequest
        /// Values taken from the endpoint's `:name` path segments.
        public let pathParameters: Stub.Parameters

        /// Creates the value a closure sees.
        public init(_ http: HTTPMockRequest, pathParameters: Stub.Parameters = Stub.Parameters()) {
            self.http = http
            self.pathParameters = pathParameters
        }

        /// The method, such as `GET`.
        public var method: String { http.method }
        /// The headers, by name in any case (and as members: `request.headers.contentType` is not
        /// `Content-Type`; use `request.headers["Content-Type"]` for names with dashes).
        public var headers: HTTPHeaderFields { http.headers }
        /// The path, percent-encoding kept: `/accounts/user`.
        public var path: String { http.path }
        /// The query as sent, without `?`; empty when there is none.
        public var query: String { http.query ?? "" }
        /// The body (de-chunked).
        public var body: Data { Data(http.body) }
        /// The path split into components, the root first: `/accounts/user` → `["/", "accounts", "user"]`.
        public var pathComponents: [String] {
            ["/"] + path.split(separator: "/").map { PercentCoding.decodedText($0) }
        }
        /// The query's parameters (a repeated key keeps all its values, in order).
        public var queryParameters: Stub.Parameters { Stub.Parameters.decoding(formEncoded: query[...]) }
        /// The body's fields when it is `application/x-www-form-urlencoded`; empty otherwise.
        public var formParameters: Stub.Parameters {
            guard contentType(is: "application/x-www-form-urlencoded") else { return Stub.Parameters() }
            return Stub.Parameters.decoding(formEncoded: String(decoding: http.body, as: UTF8.self)[...])
        }
        /// The body decoded as JSON (dictionaries, arrays, strings, numbers, booleans, `NSNull`), or
        /// `nil` when it is not JSON.
        public var bodyJSON: Any? {
            (try? JSONReader.parse(http.body, options: .strict))?.foundationObject
        }

        /// The body decoded as `type` from JSON, or `nil` when it does not decode.
        public func decodeBodyJSON<T: Decodable>(as type: T.Type) -> T? {
            try? JSONDecoder().decode(type, from: body)
        }

        /// Whether the `Content-Type` is `type` (any case; parameters such as `charset` ignored).
        public func contentType(is type: String) -> Bool {
            guard let value = http.headers["Content-Type"] else { return false }
            let mediaType = value.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces() } ?? ""
            return mediaType.lowercased() == type.lowercased()
        }
    }
}
