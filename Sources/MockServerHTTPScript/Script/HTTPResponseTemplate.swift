import MockServerCore
import MockServerHTTP
import MockServerScript

/// An HTTP response written as parts, rendered with a computed `Content-Length`, so that keep-alive
/// clients work without hand-counted lengths (`{"response": {…}}` in a response file).
package struct HTTPResponseTemplate: Sendable, Hashable {
    /// The body: text with substitutions, exact bytes, or the selected file / the server's data.
    package enum Body: Sendable, Hashable {
        case text(ResponseTemplate)
        case bytes([UInt8])
        case data

        /// Whether the body is the same bytes for every request: no substitution, not the server's data.
        var isConstant: Bool {
            switch self {
            case .text(let template): template.constantBytes != nil
            case .bytes: true
            case .data: false
            }
        }
    }

    /// The status code and reason, such as `200 OK` (substitutions allowed).
    package let status: ResponseTemplate
    /// Header names and values, in order (substitutions allowed in values).
    package let headers: [Header]
    /// The body.
    package let body: Body
    /// A body in timed pieces (`"events"` or `"chunks"`) sent chunked in place of ``body``.
    package let streamed: HTTPStreamedBody?
    /// The response, made once, when the status, every header value and the body are constant (no
    /// substitution, not the server's data) and nothing is streamed: what ``response(input:groups:context:)``
    /// would make for every request, with no values to read.
    package private(set) var constantResponse: HTTPMockResponse?

    /// One header line.
    package struct Header: Sendable, Hashable {
        /// The header's name.
        package let name: String
        /// The header's value.
        package let value: ResponseTemplate

        /// Creates a header.
        package init(name: String, value: ResponseTemplate) {
            self.name = name
            self.value = value
        }
    }

    /// Creates a response template.
    package init(status: ResponseTemplate = "200 OK", headers: [Header] = [], body: Body = .bytes([])) {
        self.init(status: status, headers: headers, body: body, streamed: nil)
    }

    /// A response template whose body is `streamed`, when given.
    package init(status: ResponseTemplate, headers: [Header], body: Body, streamed: HTTPStreamedBody?) {
        self.status = status
        self.headers = headers
        self.body = body
        self.streamed = streamed
        if streamed == nil, status.constantBytes != nil, headers.allSatisfy({ $0.value.constantBytes != nil }), body.isConstant {
            // Nothing to substitute: what every request would get, made the one way it is made.
            constantResponse = response(input: InputUnit(bytes: []), groups: [], context: SubstitutionContext())
        }
    }

    /// The response with `input`'s substitutions made: the status, the headers and the body.
    package func response(input: InputUnit, groups: [String?], context: SubstitutionContext) -> HTTPMockResponse {
        if let constantResponse { return constantResponse }
        let bodyBytes: [UInt8]
        switch body {
        case .text(let template): bodyBytes = template.render(input: input, groups: groups, context: context)
        case .bytes(let bytes): bodyBytes = bytes
        case .data: bodyBytes = context.data
        }
        let status = String(decoding: status.render(input: input, groups: groups, context: context), as: UTF8.self)
        let fields = headers.map { header in
            HTTPHeaderFields.Field(name: header.name, value: String(decoding: header.value.render(input: input, groups: groups, context: context), as: UTF8.self))
        }
        return HTTPMockResponse(statusLine: status, headers: HTTPHeaderFields(fields), body: bodyBytes)
    }

    /// The response's bytes as ``HTTPResponseSerializer`` writes them with no request to answer:
    /// `HTTP/1.1 STATUS`, the headers, `Content-Length` (unless a header gives it or chunked
    /// encoding, or the status has no body), the blank line and the body.
    package func render(input: InputUnit, groups: [String?], context: SubstitutionContext) -> [UInt8] {
        HTTPResponseSerializer.serialize(response(input: input, groups: groups, context: context), for: context.protocolValues[HTTPMockRequest.self]).bytes
    }
}
