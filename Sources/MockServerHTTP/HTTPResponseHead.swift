/// The status line and headers of a response, as a client reads them.
package struct HTTPResponseHead: Sendable, Equatable {
    /// `HTTP/1.1`, say.
    package var version: String
    /// The status code.
    package var status: Int
    /// The reason phrase (possibly empty).
    package var reason: String
    /// The header fields, in order.
    package var headers: HTTPHeaderFields
    /// Which common literal names the first fields have, as the parser found them (none for a
    /// head it did not parse); a note for proxies, not part of what the head says, so not compared.
    package var fieldIDs: HTTPResponseFieldIDs

    /// A head of `headers`, with `fieldIDs` noted by a parser.
    package init(version: String, status: Int, reason: String, headers: HTTPHeaderFields, fieldIDs: HTTPResponseFieldIDs = HTTPResponseFieldIDs()) {
        self.version = version
        self.status = status
        self.reason = reason
        self.headers = headers
        self.fieldIDs = fieldIDs
    }

    /// Whether the two heads say the same: version, status, reason and fields.
    package static func == (left: HTTPResponseHead, right: HTTPResponseHead) -> Bool {
        left.version == right.version && left.status == right.status && left.reason == right.reason && left.headers == right.headers
    }
}
