import MockServerCore

extension ScriptVocabulary {
    /// A route a protocol adds to the control API (`mockserver --admin`): a verb (the request's
    /// method), an exact path or a path prefix,
    /// and a handler that answers with a status and a JSON body (or bytes of a type of its own,
    /// or an answer that comes later). The API composes the routes of
    /// the mock's protocols (``ScriptProtocol/adminRoutes``) with its own; a route that takes a
    /// method and path another route takes (one of the API's own, `GET /files/PATH` say, or another
    /// protocol's) stops the API from starting, naming both. (The API is HTTP; this layer names no
    /// protocol, so the request method is the route's `verb`.)
    ///
    /// ```swift
    /// ScriptVocabulary.AdminRoute(verb: "GET", path: "/counter/totals") { _ in
    ///     .init(status: 200, json: .object(["total": .number(store.total)]))
    /// }
    /// ScriptVocabulary.AdminRoute(verb: "GET", pathPrefix: "/counter/") { request in
    ///     .init(body: Array("\(store.value(of: request.rest))\n".utf8), contentType: "text/plain")
    /// }
    /// ```
    public struct AdminRoute: Sendable {
        /// One request to the route.
        public struct Request: Sendable {
            /// The query's fields by name (the last of a repeated name), decoded.
            public let query: [String: String]
            /// The request's body.
            public let body: [UInt8]
            /// What a prefix route's path left after its prefix, percent-decoded (`abc/raw` of
            /// `/api/v1/message/abc/raw` for the prefix `/api/v1/message/`); empty for an exact path.
            public let rest: String

            /// A request (for a handler's unit tests; the control API makes its own).
            public init(query: [String: String] = [:], body: [UInt8] = [], rest: String = "") {
                self.query = query
                self.body = body
                self.rest = rest
            }
        }

        /// The route's answer: its status and its JSON body (sent as `application/json`), or
        /// bytes of a content type of their own, or an answer that comes later.
        public struct Answer: Sendable {
            /// The HTTP status: 200 by default.
            public var status: Int
            /// The body, when ``body`` is nil (`null` for an answer made with bytes).
            public var json: JSONNode
            /// Bytes sent as they are, with ``contentType``, instead of ``json``; nil for a JSON answer.
            public var body: [UInt8]?
            /// The `Content-Type` of the answer: `application/json` for a JSON answer.
            public var contentType: String
            /// Makes the answer later (after a wait), off the server's loop thread; when set, the
            /// control API sends what it returns and nothing else of this answer.
            public let deferred: (@Sendable () async -> Answer)?

            /// An answer of `status` with `json` as its body.
            public init(status: Int = 200, json: JSONNode) {
                self.status = status
                self.json = json
                self.body = nil
                self.contentType = "application/json"
                self.deferred = nil
            }

            /// An answer of `status` with `body` as it is, of the type `contentType`
            /// (`text/plain; charset=utf-8`, `image/png`).
            public init(status: Int = 200, body: [UInt8], contentType: String) {
                self.status = status
                self.json = .null
                self.body = body
                self.contentType = contentType
                self.deferred = nil
            }

            /// An answer that `deferred` makes later: the handler checks the request at once and
            /// leaves a wait to `deferred`, which the control API awaits before it answers.
            ///
            /// ```swift
            /// .init(deferred: { await store.nextValue(timeout: .seconds(5)).map { .init(json: .number($0)) } ?? .init(status: 408, json: .null) })
            /// ```
            public init(deferred: @escaping @Sendable () async -> Answer) {
                self.status = 200
                self.json = .null
                self.body = nil
                self.contentType = "application/json"
                self.deferred = deferred
            }

            /// The answer once any ``deferred`` part has been made: this answer, or the one it defers to.
            public func resolved() async -> Answer {
                var answer = self
                while let later = answer.deferred { answer = await later() }
                return answer
            }
        }

        /// The request method it answers, in capitals (`GET`, `POST`).
        public let verb: String
        /// The path, exactly, starting with `/` (`/counter/totals`); for a prefix route
        /// (``isPrefix``), the prefix (`/counter/`).
        public let path: String
        /// Whether ``path`` is a prefix: the route then takes every longer path that starts with
        /// it, and hands the handler the rest (``Request/rest``, never empty).
        public let isPrefix: Bool
        /// The answer to one request, made off the server's loop thread.
        public let handle: @Sendable (Request) -> Answer

        /// A route answering the request method `verb` on `path` with `handle`.
        public init(verb: String = "GET", path: String, handle: @escaping @Sendable (Request) -> Answer) {
            self.verb = verb.uppercased()
            self.path = path
            self.isPrefix = false
            self.handle = handle
        }

        /// A route answering the request method `verb` on every path that starts with
        /// `pathPrefix` and goes on past it (`/api/v1/message/abc` for `/api/v1/message/`), with
        /// `handle`, which reads what follows the prefix as ``Request/rest``.
        public init(verb: String = "GET", pathPrefix: String, handle: @escaping @Sendable (Request) -> Answer) {
            self.verb = verb.uppercased()
            self.path = pathPrefix
            self.isPrefix = true
            self.handle = handle
        }
    }
}
