/// The status line and headers of a response, as a client reads them.
package struct HTTPResponseHead: Sendable, Equatable {
    /// `HTTP/1.1`, say.
    package var version: String
    /// The status code.
    package var status: Int
    /// The reason phrase (possibly empty).
    package var reason: String
    /// The header fields, in order.
    package var headers: HTTPHeaders
}
