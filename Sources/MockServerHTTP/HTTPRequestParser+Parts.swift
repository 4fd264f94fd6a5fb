import MockServerCore

extension HTTPRequestParser {
    /// Reads one whole request that a client built in memory (the in-process `URLProtocol`'s), given
    /// as the bytes it would send and, beside them, the header fields it wrote them from: the result
    /// of ``next()`` over these bytes appended to a new parser with this parser's limits (what this
    /// one has buffered plays no part), without copying the bytes into a buffer, searching them for
    /// line ends or decoding each field's name and value again.
    ///
    /// The request line is read from `bytes` as ``next()`` reads the usual one; each field's line,
    /// found where the parts put it (no search for line ends), gets the checks ``next()`` gives it
    /// (``HTTPSyntax/field(_:)``, then ``HTTPSyntax/checkHost(_:)`` or
    /// ``HTTPSyntax/contentLength(_:limit:)`` by name), and the parts' own strings stand for the
    /// name and value (no decoding). Whatever these checks doubt (a byte that would end a line
    /// elsewhere, a value with white space to trim, a request line of another shape,
    /// `Transfer-Encoding`, a second `Host` or `Content-Length`, a length that is not the body's, a
    /// head past the limit, bytes that are not where the parts say) is left to ``next()`` over the
    /// bytes: this path only accepts what that one accepts, read the same way, and what it refuses
    /// is refused in its words.
    ///
    /// - Parameters:
    ///   - bytes: the whole request: the request line, one `Name: value` line for each of `headers`
    ///     in order, a blank line, the body. Kept as the request's ``HTTPMockRequest/input``.
    ///   - requestLineLength: where the request line ends in `bytes` (before its CR LF).
    ///   - headLength: where the body begins in `bytes` (after the blank line).
    ///   - headers: the fields of the lines between, in their order.
    /// - Returns: the request, or `nil` when `bytes` are not a whole one.
    package func request(bytes: [UInt8], requestLineLength: Int, headLength: Int, headers: HTTPHeaderFields) throws(FramingError) -> HTTPMockRequest? {
        if let request = acceptedRequest(bytes: bytes, requestLineLength: requestLineLength, headLength: headLength, headers: headers) {
            return request
        }
        var parser = HTTPRequestParser(maximumHeadLength: maximumHeadLength, maximumBodyLength: maximumBodyLength, maximumChunkCount: maximumChunkCount)
        parser.append(bytes)
        return try parser.next()
    }

    /// The request ``request(bytes:requestLineLength:headLength:headers:)`` reads from its parts, or
    /// `nil` when a check doubts them.
    private func acceptedRequest(bytes: [UInt8], requestLineLength: Int, headLength: Int, headers: HTTPHeaderFields) -> HTTPMockRequest? {
        guard headLength <= maximumHeadLength, requestLineLength + 4 <= headLength, headLength <= bytes.count,
              let words = Self.usualRequestLine(bytes[..<requestLineLength]),
              // HTTP/1.0's rules for framing and keeping the connection differ: left to the parser.
              words.2.last == UInt8(ascii: "1"),
              (try? HTTPSyntax.checkTarget(words.1, method: words.0)) != nil else { return nil }
        var contentLength: Int?
        var hosts = 0
        var hasConnectionField = false
        // Each field's line lies where the parts put it: `Name: value` and CR LF, after the request line's.
        var lineStart = requestLineLength + 2
        for field in headers.fields {
            let nameCount = field.name.utf8.count
            let lineEnd = lineStart + nameCount + 2 + field.value.utf8.count
            // The field line's own checks, on its bytes; a value they would trim is not the parts' value.
            guard lineEnd + 2 <= headLength, bytes[lineEnd] == 0x0D, bytes[lineEnd + 1] == 0x0A,
                  let (name, value) = try? HTTPSyntax.field(bytes[lineStart..<lineEnd]),
                  name.count == nameCount, value.endIndex == lineEnd, value.startIndex == name.endIndex + 2 else { return nil }
            lineStart = lineEnd + 2
            // The names ``next()`` reads for framing, known by their lengths first as there.
            switch nameCount {
            case 4 where field.name.equalsIgnoringASCIICase("host"):
                hosts += 1
                guard hosts == 1, (try? HTTPSyntax.checkHost(value)) != nil else { return nil }
            case 14 where field.name.equalsIgnoringASCIICase("content-length"):
                // Not a number, or past the limit: both `nil`.
                guard contentLength == nil, let length = try? HTTPSyntax.contentLength(value, limit: maximumBodyLength) else { return nil }
                contentLength = length
            case 17 where field.name.equalsIgnoringASCIICase("transfer-encoding"):
                return nil
            case 10 where field.name.equalsIgnoringASCIICase("connection"):
                hasConnectionField = true
            default:
                break
            }
        }
        // The blank line ends the head; a body longer or shorter than its length (the bytes after
        // it, or the wait for more) is the parser's.
        guard lineStart + 2 == headLength, bytes[lineStart] == 0x0D, bytes[lineStart + 1] == 0x0A,
              (contentLength ?? 0) == bytes.count - headLength else { return nil }
        let method = Self.text(ofMethod: words.0)
        let target = String(decoding: words.1, as: UTF8.self)
        let input = InputUnit(bytes: bytes)
        let body = HTTPMockRequest.BodyLayout.range(headLength..<bytes.count)
        return hasConnectionField
            ? HTTPMockRequest(method: method, target: target, version: "HTTP/1.1", headers: headers, input: input, body: body)
            : HTTPMockRequest(method: method, target: target, version: "HTTP/1.1", headers: headers, input: input, body: body, withoutConnectionField: true)
    }
}
