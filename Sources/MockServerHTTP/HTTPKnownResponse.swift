import MockServerCore
/// A response as a client reads it from the bytes the serializer wrote for it, known from what was
/// written rather than read back (``HTTPResponseSerializer/serializeKnowing(_:for:)``): the
/// response's own fields, then the ones the serializer added, in the order of the bytes. The
/// fields are not copied into a list of their own: an in-process client takes them one by one.
package struct HTTPKnownResponse: Sendable {
    /// The response the bytes were written from.
    private let response: HTTPMockResponse
    /// The fields the serializer added after the response's own (`Connection`), but for the length.
    private let added: HTTPHeaderFields
    /// Whether the serializer added a `Content-Length` of the body's length, after the others.
    private let addedLength: Bool
    /// Whether some of the response's own values start or end with a space or tab, which a reader drops.
    private let padded: Bool
    /// Whether a client reads a body: not for a status without one, nor for a `HEAD` request.
    private let hasBody: Bool

    /// A known response for `response`, whose bytes had the fields `added` after its own, then a
    /// `Content-Length` when `addedLength`.
    init(_ response: HTTPMockResponse, added: HTTPHeaderFields, addedLength: Bool, padded: Bool, hasBody: Bool) {
        self.response = response
        self.added = added
        self.addedLength = addedLength
        self.padded = padded
        self.hasBody = hasBody
    }

    /// The status code.
    package var status: Int { response.status }

    /// The version a client reads: the serializer writes `HTTP/1.1`.
    package var version: String { "HTTP/1.1" }

    /// The response's own fields as it has them (values as given, which a reader may trim): the
    /// serializer adds none of `Set-Cookie`, `Location` and the like.
    package var ownHeaders: HTTPHeaderFields { response.headers }

    /// The body a client reads.
    package var body: [UInt8] { hasBody ? response.body : [] }

    /// The number of fields a client reads.
    package var fieldCount: Int { response.headers.count + added.count + (addedLength ? 1 : 0) }

    /// Calls `body` with each field's name and value as a client reads them, in order.
    package func forEachField(_ body: (_ name: String, _ value: String) -> Void) {
        for field in response.headers { body(field.name, padded ? field.value.trimmingSpaces() : field.value) }
        for field in added { body(field.name, field.value) }
        if addedLength { body("Content-Length", String(response.body.count)) }
    }

    /// The head a client reads, as a list of its own.
    package var head: HTTPResponseHead {
        var headers = HTTPHeaderFields()
        headers.reserveCapacity(fieldCount)
        forEachField { headers.add(name: $0, value: $1) }
        return HTTPResponseHead(version: version, status: status, reason: response.reason, headers: headers)
    }
}
