import MockServerCore

extension ScriptVocabulary {
    /// A route a protocol adds to the control API (`mockserver --admin`): a verb (the request's
    /// method), an exact path,
    /// and a handler that answers with a status and a JSON body. The API composes the routes of
    /// the mock's protocols (``ScriptProtocol/adminRoutes``) with its own; a route that takes a
    /// method and path another route takes (one of the API's own, `GET /files/PATH` say, or another
    /// protocol's) stops the API from starting, naming both. (The API is HTTP; this layer names no
    /// protocol, so the request method is the route's `verb`.)
    ///
    /// ```swift
    /// ScriptVocabulary.AdminRoute(verb: "GET", path: "/counter/totals") { _ in
    ///     .init(status: 200, json: .object(["total": .number(store.total)]))
    /// }
    /// ```
    public struct AdminRoute: Sendable {
        /// One request to the route.
        public struct Request: Sendable {
            /// The query's fields by name (the last of a repeated name), decoded.
            public let query: [String: String]
            /// The request's body.
            public let body: [UInt8]

            /// A request (for a handler's unit tests; the control API makes its own).
            public init(query: [String: String] = [:], body: [UInt8] = []) {
                self.query = query
                self.body = body
            }
        }

        /// The route's answer: its status and its JSON body (sent as `application/json`).
        public struct Answer: Sendable {
            /// The HTTP status: 200 by default.
            public var status: Int
            /// The body.
            public var json: JSONNode

            /// An answer of `status` with `json` as its body.
            public init(status: Int = 200, json: JSONNode) {
                self.status = status
                self.json = json
            }
        }

        /// The request method it answers, in capitals (`GET`, `POST`).
        public let verb: String
        /// The path, exactly, starting with `/` (`/counter/totals`).
        public let path: String
        /// The answer to one request, made off the server's loop thread.
        public let handle: @Sendable (Request) -> Answer

        /// A route answering the request method `verb` on `path` with `handle`.
        public init(verb: String = "GET", path: String, handle: @escaping @Sendable (Request) -> Answer) {
            self.verb = verb.uppercased()
            self.path = path
            self.handle = handle
        }
    }
}
