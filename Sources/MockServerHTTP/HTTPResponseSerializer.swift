import MockServerCore
/// The one writer of the HTTP responses the server sends, with RFC 9112's rules for the length
/// and the persistence of the connection.
package enum HTTPResponseSerializer {
    /// The bytes of `response` as an answer to `request`, and whether the connection stays open.
    ///
    /// - `Content-Length` is added unless a header gives it or `Transfer-Encoding`, or the status
    ///   has no body; a `HEAD` request gets the length without the body.
    /// - Trailers (``HTTPMockResponse/trailers``) go in a chunked body's trailer section, announced by
    ///   a `Trailer` header, when the request is HTTP/1.1 (or there is none) and the response has a
    ///   body and no framing header of its own; an HTTP/1.0 client cannot read chunks, so it gets the
    ///   body with its length and no trailers (``dropsTrailers(_:for:)`` says when).
    /// - Persistence (RFC 9112 §9.3): the connection stays open for HTTP/1.1 unless the request or
    ///   the response says `Connection: close`, and for HTTP/1.0 only when the request asked for
    ///   `keep-alive`. The response gets `Connection: keep-alive` for a 1.0 client that stays, and
    ///   `Connection: close` whenever the server will close, unless it has a `Connection` header.
    ///   Without a request (`nil`), nothing is added and the connection stays open.
    package static func serialize(_ response: HTTPMockResponse, for request: HTTPMockRequest?) -> (bytes: [UInt8], keepAlive: Bool) {
        var fields: HTTPHeaderFields?
        var addedLength = false
        let written = write(response, for: request, sharing: false, fields: &fields, addedLength: &addedLength)
        return (written.bytes, written.keepAlive)
    }

    /// A body this long or longer is sent from the response's own storage rather than copied after
    /// the head (``serializeSharingBody(_:for:)``): the connection's output keeps an array of this
    /// size as it is (``MockServerCore/OutputBuffer``), where it would copy a shorter one anyway.
    package static let sharedBodySize = OutputBuffer.keptWholeSize

    /// The bytes of `response` as an answer to `request`, as ``serialize(_:for:)`` writes them, in
    /// the pieces a connection sends: with a body of ``sharedBodySize`` bytes or more (and one to
    /// send), `bytes` are the head alone (with a chunked body's size line), `sharesBody` is `true`,
    /// and the response's `body` array follows them as it is, then `tail` (a chunked body's end:
    /// its CRLF, the last chunk and the trailers; empty otherwise). Sending the body array shares
    /// its storage with the response, so a hundred connections sending one answer hold it once.
    /// A smaller answer is one piece, as ``serialize(_:for:)`` writes it (`sharesBody` `false`,
    /// `tail` empty).
    package static func serializeSharingBody(_ response: HTTPMockResponse, for request: HTTPMockRequest?)
        -> (bytes: [UInt8], sharesBody: Bool, tail: [UInt8], keepAlive: Bool) {
        var fields: HTTPHeaderFields?
        var addedLength = false
        return write(response, for: request, sharing: true, fields: &fields, addedLength: &addedLength)
    }

    /// The bytes of `response` as an answer to `request`, with the head and body a client reads
    /// from them (``serializeKnowing(_:for:)``'s answer as a list of fields), or `nil` for the head
    /// where a reader could see another.
    package static func serializeWithHead(_ response: HTTPMockResponse, for request: HTTPMockRequest) -> (bytes: [UInt8], head: HTTPResponseHead?, body: [UInt8]) {
        let written = serializeKnowing(response, for: request)
        return (written.bytes, written.known?.head, written.known?.body ?? [])
    }

    /// The bytes of `response` as an answer to `request`, with what a client reads from them,
    /// known from what was written rather than read back, where that is certain: a final status
    /// (200 to 999), no `Transfer-Encoding` and no `Content-Length` other than the body's of the
    /// response's own, and no line breaks or colons where a reader would split a field
    /// differently. Otherwise `known` is `nil`: read the bytes as a client does.
    package static func serializeKnowing(_ response: HTTPMockResponse, for request: HTTPMockRequest) -> (bytes: [UInt8], known: HTTPKnownResponse?) {
        var added: HTTPHeaderFields? = HTTPHeaderFields()
        var addedLength = false
        let bytes = write(response, for: request, sharing: false, fields: &added, addedLength: &addedLength).bytes
        // The fields added (`Connection`, `Content-Length`) have none of what is looked for here.
        guard let added, (200...999).contains(response.status), !response.headers.contains("Transfer-Encoding"), response.trailers.fields.isEmpty,
              response.headers["Content-Length"].map({ Int($0.trimmingSpaces()) == response.body.count }) ?? true,
              !response.reason.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }),
              response.headers.allSatisfy({ field in
                  !field.name.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x3A } && !field.value.utf8.contains { $0 == 0x0D || $0 == 0x0A }
              }) else {
            return (bytes, nil)
        }
        // A reader drops spaces and tabs around a value; values rarely have them.
        func padded(_ value: String) -> Bool {
            let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
            return value.utf8.first.map(isSpace) ?? false || value.utf8.last.map(isSpace) ?? false
        }
        // A client reads no body for a HEAD request whatever the bytes hold (the method in any case).
        let hasBody = !response.isBodiless && !request.method.equalsIgnoringASCIICase("HEAD")
        return (bytes, HTTPKnownResponse(response, added: added, addedLength: addedLength, padded: response.headers.contains { padded($0.value) }, hasBody: hasBody))
    }

    /// `HTTP/1.1 `, as bytes: appending a `String`'s UTF-8 view copies it byte by byte.
    private static let statusLineStart = Array("HTTP/1.1 ".utf8)
    /// `Content-Length: `, as bytes.
    private static let contentLengthName = Array("Content-Length: ".utf8)

    /// Writes `response`, adding each header field the serializer adds to the response's own to
    /// `fields` when it is not `nil`, but for a `Content-Length` of the body's length: that one
    /// sets `addedLength` (it comes last). With `sharing`, a body of ``sharedBodySize`` bytes or
    /// more is left out (`sharesBody`), and what follows it is `tail`.
    private static func write(_ response: HTTPMockResponse, for request: HTTPMockRequest?, sharing: Bool, fields: inout HTTPHeaderFields?,
                              addedLength: inout Bool) -> (bytes: [UInt8], sharesBody: Bool, tail: [UInt8], keepAlive: Bool) {
        func append(_ name: String, _ value: String, to output: inout [UInt8]) {
            HTTPHeaderFields.write(name: name, value: value, to: &output)
            fields?.add(name: name, value: value)
        }
        // Room for the whole head, so that the output is allocated once: a proxied answer's
        // fields (`Server`, `Date`, `Content-Type`) outgrew a fixed guess of 128 bytes, and the head
        // was copied into a larger buffer.
        var headCount = 96 + response.reason.utf8.count
        for field in response.headers.fields { headCount += field.name.utf8.count + field.value.utf8.count + 4 }
        let sharesBody = sharing && response.body.count >= sharedBodySize
        var output: [UInt8] = []
        output.reserveCapacity(headCount + (sharesBody ? 0 : response.body.count))
        output.append(contentsOf: statusLineStart)
        if response.status > 0 {
            appendDecimal(response.status, to: &output)
            // The space stays when there is no reason phrase (RFC 9112 §4: `HTTP/1.1 203 `).
            output.append(0x20)
            HTTPHeaderFields.appendUTF8(of: response.reason, to: &output)
        } else {
            HTTPHeaderFields.appendUTF8(of: response.reason, to: &output)
        }
        output.append(0x0D)
        output.append(0x0A)
        var framed = false
        for field in response.headers {
            if field.name.equalsIgnoringASCIICase("content-length") || field.name.equalsIgnoringASCIICase("transfer-encoding") { framed = true }
            HTTPHeaderFields.write(name: field.name, value: field.value, to: &output)
        }
        var keepAlive = true
        if let request {
            // Most responses have no `Connection` field: looked for once.
            let hasConnection = response.headers.contains("Connection")
            keepAlive = request.wantsKeepAlive && !(hasConnection && response.headers.hasToken("close", in: "Connection"))
            if !hasConnection {
                if !keepAlive {
                    append("Connection", "close", to: &output)
                } else if request.version != "HTTP/1.1" && !request.version.hasPrefix("HTTP/1.1") {
                    append("Connection", "keep-alive", to: &output)
                }
            }
        }
        let bodiless = response.isBodiless
        let chunked = !framed && !bodiless && !response.trailers.fields.isEmpty && !dropsTrailers(response, for: request)
        if chunked {
            append("Transfer-Encoding", "chunked", to: &output)
            append("Trailer", response.trailers.map(\.name).joined(separator: ", "), to: &output)
        } else if !framed && !bodiless {
            // The length's digits written directly, without a `String` of them.
            output.append(contentsOf: contentLengthName)
            appendDecimal(response.body.count, to: &output)
            output.append(0x0D)
            output.append(0x0A)
            addedLength = true
        }
        output.append(0x0D)
        output.append(0x0A)
        guard !bodiless && request?.method != "HEAD" else { return (output, false, [], keepAlive) }
        if chunked {
            if !response.body.isEmpty {
                output.append(contentsOf: (String(response.body.count, radix: 16) + "\r\n").utf8)
                if sharesBody { return (output, true, [0x0D, 0x0A] + lastChunk(trailers: response.trailers), keepAlive) }
                output.append(contentsOf: response.body)
                output += [0x0D, 0x0A]
            }
            output += lastChunk(trailers: response.trailers)
        } else if sharesBody {
            return (output, true, [], keepAlive)
        } else {
            output.append(contentsOf: response.body)
        }
        return (output, false, [], keepAlive)
    }

    /// Appends `value`'s decimal digits (a `-` first when negative), as `String(value)` spells them,
    /// without making the string.
    package static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { raw in
            // As typed bytes, so that the append is one copy rather than a byte at a time.
            let buffer = raw.bindMemory(to: UInt8.self)
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Whether `response`'s trailers are left out of the answer to `request`: it has some, and the
    /// request is not HTTP/1.1 (an HTTP/1.0 client cannot read a chunked body).
    package static func dropsTrailers(_ response: HTTPMockResponse, for request: HTTPMockRequest?) -> Bool {
        guard !response.trailers.fields.isEmpty, let request else { return false }
        return !request.version.hasPrefix("HTTP/1.1")
    }

    /// A chunked body's end: the last chunk (`0`), the trailer fields, and the blank line.
    package static func lastChunk(trailers: HTTPHeaderFields) -> [UInt8] {
        var output = Array("0\r\n".utf8)
        trailers.write(to: &output)
        output += [0x0D, 0x0A]
        return output
    }

    /// `HTTP/1.1 100 Continue` and its blank line.
    package static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
