/// An HTTP response written as parts, rendered with a computed `Content-Length`, so that keep-alive
/// clients work without hand-counted lengths (`{"response": {…}}` in a response file).
public struct HTTPResponseTemplate: Sendable, Hashable {
    /// The body: text with substitutions, exact bytes, or the selected file / the server's data.
    public enum Body: Sendable, Hashable {
        case text(Template)
        case bytes([UInt8])
        case data
    }

    /// The status code and reason, such as `200 OK` (substitutions allowed).
    public let status: Template
    /// Header names and values, in order (substitutions allowed in values).
    public let headers: [Header]
    /// The body.
    public let body: Body

    /// One header line.
    public struct Header: Sendable, Hashable {
        /// The header's name.
        public let name: String
        /// The header's value.
        public let value: Template

        /// Creates a header.
        public init(name: String, value: Template) {
            self.name = name
            self.value = value
        }
    }

    /// Creates a response template.
    public init(status: Template = "200 OK", headers: [Header] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The response's bytes: `HTTP/1.1 STATUS`, the headers, `Content-Length` (unless a header
    /// gives it or chunked encoding, or the status has no body), the blank line and the body.
    func render(input: Input, groups: [String?], context: SubstitutionContext) -> [UInt8] {
        let bodyBytes: [UInt8]
        switch body {
        case .text(let template): bodyBytes = template.render(input: input, groups: groups, context: context)
        case .bytes(let bytes): bodyBytes = bytes
        case .data: bodyBytes = context.data
        }
        let statusBytes = status.render(input: input, groups: groups, context: context)
        var output = Array("HTTP/1.1 ".utf8) + statusBytes + [0x0D, 0x0A]
        var framed = false
        for header in headers {
            let lowered = header.name.lowercased()
            if lowered == "content-length" || lowered == "transfer-encoding" { framed = true }
            output += Array(header.name.utf8) + Array(": ".utf8) + header.value.render(input: input, groups: groups, context: context) + [0x0D, 0x0A]
        }
        let code = statusBytes.prefix(3)
        let bodiless = code.first == UInt8(ascii: "1") || code.elementsEqual("204".utf8) || code.elementsEqual("304".utf8)
        if !framed && !bodiless { output += Array("Content-Length: \(bodyBytes.count)\r\n".utf8) }
        output += [0x0D, 0x0A]
        if !bodiless { output += bodyBytes }
        return output
    }
}
