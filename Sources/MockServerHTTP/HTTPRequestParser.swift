import MockServerCore

/// The one HTTP/1.x parser: cuts a byte stream into whole requests (the request line, the
/// headers, the blank line and the body, by `Content-Length` or `Transfer-Encoding: chunked`) and
/// hands out each as an ``HTTPMockRequest``.
///
/// A request keeps its bytes exactly as they came, chunk framing of a chunked body included, so
/// patterns written for the original MockServer (`PUT.*Authorization: Basic …`) match the same
/// text; its body is de-chunked from the chunk boundaries found while framing. Requests split over
/// many reads and pipelined requests are both handled.
package struct HTTPRequestParser: Sendable {
    /// The longest request line plus headers accepted, in bytes.
    package let maximumHeadLength: Int
    /// The longest body accepted, in bytes (chunk framing included).
    package let maximumBodyLength: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// The head of the request at `start` while its body has not all come; out of line (a box only
    /// while one waits), as most requests come whole and an idle connection's parser stays small.
    private var head: WaitingHead?
    private var continueOwed = false
    /// How far the head of the request at `start` has been searched for its blank line, and
    /// whether its request line has been checked: a head that comes a byte at a time is scanned
    /// once, not once a read.
    private var scan = HeadScan()

    /// What is known of a head that has not all arrived.
    private struct HeadScan {
        /// The index up to which no end of head was found.
        var searched = 0
        /// Whether the request line has ended and passed its checks.
        var requestLineChecked = false
    }

    /// What is known of the request whose head has arrived.
    private struct Head {
        let length: Int
        let body: Body
        var chunkCursor: Int
        let method: String
        let target: String
        let version: String
        let headers: HTTPHeaderFields
        /// Whether a `Connection` field came: without one, whether the connection stays open
        /// depends on the version alone.
        let hasConnectionField: Bool
        /// The data of each complete chunk, relative to the request's start.
        var chunks: [Range<Int>] = []
        /// Where the trailer section begins, once the last chunk has come; `chunkCursor` then walks
        /// the trailer lines.
        var trailersStart: Int?
    }

    /// A ``Head`` held out of line.
    private indirect enum WaitingHead {
        case head(Head)
    }

    private enum Body {
        case length(Int)
        case chunked
    }

    /// The most chunks a chunked body may come in (each one's place is kept until the request is
    /// whole: a body of one-byte chunks would otherwise keep millions).
    package let maximumChunkCount: Int

    /// Creates a framer with limits on the head (64 KiB), the body (64 MiB) and a chunked body's
    /// chunks (1,048,576) by default.
    package init(maximumHeadLength: Int = 64 * 1024, maximumBodyLength: Int = 64 << 20, maximumChunkCount: Int = 1 << 20) {
        self.maximumHeadLength = max(64, maximumHeadLength)
        self.maximumBodyLength = max(0, maximumBodyLength)
        self.maximumChunkCount = max(1, maximumChunkCount)
    }

    /// Adds bytes received from the peer.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            scan = HeadScan()
        } else if start > 65_536 && start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            if case .head(var current)? = head.take() {
                current.chunkCursor -= start
                current.trailersStart = current.trailersStart.map { $0 - start }
                head = .head(current)
            }
            scan.searched = max(0, scan.searched - start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes received from the peer.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        Array(bytes).withUnsafeBytes { append($0) }
    }

    /// The head (request line, headers and blank line) of a request that announced
    /// `Expect: 100-continue` and whose body has not all arrived; returned once, after a
    /// ``next()`` that returned `nil`. Its client waits for `100 Continue` (or a final answer)
    /// before sending the body.
    package mutating func takeHeadAwaitingContinue() -> HTTPMockRequest? {
        guard continueOwed, case .head(let head)? = head else { return nil }
        continueOwed = false
        return HTTPMockRequest(method: head.method, target: head.target, version: head.version, headers: head.headers,
                           input: InputUnit(bytes: Array(buffer[start..<start + head.length])), body: .range(head.length..<head.length))
    }

    /// Removes and returns the next whole request, or `nil` when more bytes are needed.
    package mutating func next() throws(FramingError) -> HTTPMockRequest? {
        // Blank lines between requests (LF or CR LF, RFC 9112 §2.2) are allowed and dropped; a CR
        // alone is not one.
        while head == nil && start < buffer.count {
            if buffer[start] == 0x0A {
                start += 1
            } else if buffer[start] == 0x0D && start + 1 < buffer.count && buffer[start + 1] == 0x0A {
                start += 2
            } else {
                break
            }
            scan = HeadScan()
        }
        // Nothing buffered and no head waiting for its body: the usual call after a request was
        // returned, answered before any parsing (the checks below would pass an empty buffer).
        if head == nil && start == buffer.count { return nil }
        // The head is taken out (not copied) while the body is looked for, and put back if it is
        // not all here: a copy would retain and release each of its strings.
        var current: Head
        if case .head(let held)? = head.take() {
            current = held
        } else {
            guard let parsed = try parseHead() else { return nil }
            current = parsed
        }
        let bodyStart = start + current.length
        let end: Int
        let body: HTTPMockRequest.BodyLayout
        switch current.body {
        case .length(let count):
            guard buffer.count - bodyStart >= count else {
                if buffer.count - bodyStart >= Self.reservedBodyStart, buffer.capacity < bodyStart + count {
                    // Room for the whole announced body at once, rather than doubling towards it
                    // (which holds up to twice the body, and three times while it moves); only once
                    // the client has sent a good part of it, so that a length announced and never
                    // sent costs nothing.
                    buffer.reserveCapacity(bodyStart + count)
                }
                head = .head(consume current)
                return nil
            }
            end = bodyStart + count
            body = .range(current.length..<current.length + count)
        case .chunked:
            guard let found = try chunkedEnd(&current) else {
                head = .head(consume current)
                return nil
            }
            end = found
            body = .chunks(current.chunks)
        }
        let input: InputUnit
        if start == 0, end == buffer.count, buffer.capacity - end <= max(Self.sharedSlack, end / 4) {
            // The buffer holds this request alone (the usual read, or a large upload): the request
            // takes it as it is, with no copy (the buffer is let go below): one copy of an upload at
            // a time, not two.
            input = InputUnit(bytes: buffer)
        } else {
            input = InputUnit(bytes: Array(buffer[start..<end]))
        }
        let request = current.hasConnectionField
            ? HTTPMockRequest(method: current.method, target: current.target, version: current.version, headers: current.headers,
                              input: input, body: body)
            : HTTPMockRequest(method: current.method, target: current.target, version: current.version, headers: current.headers,
                              input: input, body: body, withoutConnectionField: current.version == "HTTP/1.1")
        start = end
        if start == buffer.count {
            // Everything buffered has been returned: no buffer is kept while the connection waits
            // for its next request (a large upload's least of all); the next read makes one of its size.
            buffer = []
            start = 0
        }
        scan = HeadScan()
        continueOwed = false
        return request
    }

    /// The most buffer capacity kept once everything buffered has been returned. None: a keep-alive
    /// connection that waits for its next request holds no buffer (the next read makes one).
    package static let keptCapacity = 0

    /// The most unused capacity a buffer holding one whole request may have for the request to take
    /// it as its bytes: past it, the request gets a copy of its own, so that a transcript keeping the
    /// request does not keep a large upload's buffer with it.
    package static let sharedSlack = 1024

    /// The body bytes of a request with a `Content-Length` that must have come before the buffer
    /// makes room for all of the announced body at once.
    package static let reservedBodyStart = 256 * 1024

    /// How many bytes the buffer can hold before it grows.
    package var bufferCapacity: Int { buffer.capacity }

    /// Returns nothing more once the peer has finished: a partial request is an error.
    package mutating func finish() throws(FramingError) -> HTTPMockRequest? {
        if let request = try next() { return request }
        while start < buffer.count && (buffer[start] == 0x0D || buffer[start] == 0x0A) { start += 1 }
        guard start == buffer.count else { throw .malformedRequest("the connection ended inside a request") }
        return nil
    }

    /// Whether part of a request head has arrived and not all of it: the bytes a head timeout watches.
    package var isAwaitingHead: Bool { head == nil && start < buffer.count }

    /// How many bytes are buffered and not yet returned.
    package var bufferedCount: Int { buffer.count - start }

    /// The bytes buffered and not yet returned.
    package var bufferedBytes: ArraySlice<UInt8> { buffer[start...] }

    /// Takes the bytes buffered after the last request returned: what a client sent after a request
    /// that switched the connection to another protocol (`101 Switching Protocols`) is that protocol's.
    package mutating func takeBuffered() -> [UInt8] {
        let rest = Array(buffer[start...])
        buffer = []
        start = 0
        head = nil
        scan = HeadScan()
        return rest
    }

    // MARK: Parsing

    /// The three words of a request line, separated by spaces (a run of spaces counts as one), read
    /// in place; `nil` when there are not exactly three.
    static func threeWords(_ line: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, ArraySlice<UInt8>, ArraySlice<UInt8>)? {
        var words = (0..<0, 0..<0, 0..<0)
        var count = 0
        var index = line.startIndex
        while index < line.endIndex {
            guard line[index] != 0x20 else {
                index += 1
                continue
            }
            let wordStart = index
            while index < line.endIndex && line[index] != 0x20 { index += 1 }
            switch count {
            case 0: words.0 = wordStart..<index
            case 1: words.1 = wordStart..<index
            case 2: words.2 = wordStart..<index
            default: return nil
            }
            count += 1
        }
        guard count == 3 else { return nil }
        return (line[words.0], line[words.1], line[words.2])
    }

    private mutating func parseHead() throws(FramingError) -> Head? {
        guard let headEnd = findHeadEnd() else {
            if !scan.requestLineChecked {
                if let firstLine = lineEnd(from: start) {
                    guard firstLine.content - start <= maximumHeadLength else { throw .requestLineTooLong(limit: maximumHeadLength) }
                    try checkRequestLine(upTo: firstLine.content)
                    scan.requestLineChecked = true
                } else {
                    // Bytes that cannot begin a request (a TLS handshake) are refused at once, not
                    // after a line end that their client never sends.
                    try HTTPSyntax.checkRequestStart(buffer[start...])
                    if buffer.count - start > maximumHeadLength { throw .requestLineTooLong(limit: maximumHeadLength) }
                }
            }
            if buffer.count - start > maximumHeadLength { throw .headTooLong(limit: maximumHeadLength) }
            return nil
        }
        // The request line, then each header line, read in place (without CR LF).
        guard let first = lineEnd(from: start) else { return nil }
        guard first.content - start <= maximumHeadLength else { throw .requestLineTooLong(limit: maximumHeadLength) }
        guard headEnd - start <= maximumHeadLength else { throw .headTooLong(limit: maximumHeadLength) }
        let (method, target, version) = try checkRequestLine(upTo: first.content)
        let isHTTP10 = version.last == UInt8(ascii: "0")
        var headers = HTTPHeaderFields()
        // Room for a usual request's fields, allocated once rather than grown field by field.
        headers.reserveCapacity(8)
        var contentLength: Int?
        var contentLengthTooLong = false
        var chunked = false
        var hosts = 0
        var expectsContinue = false
        var hasConnectionField = false
        var cursor = first.next
        while cursor < headEnd, let end = lineEnd(from: cursor) {
            let line = buffer[cursor..<end.content]
            cursor = end.next
            if line.isEmpty { continue }
            let (nameBytes, valueBytes) = try HTTPSyntax.field(line)
            let fieldName = Self.text(ofFieldName: nameBytes)
            let value = String(decoding: valueBytes, as: UTF8.self)
            headers.add(name: fieldName, value: value)
            // Only four names matter for framing: compared without a lower-cased copy of each.
            switch fieldName.utf8.count {
            case 4 where fieldName.equalsIgnoringASCIICase("host"):
                hosts += 1
                if hosts > 1 { throw .malformedRequest("two Host header fields") }
                try HTTPSyntax.checkHost(valueBytes)
            case 14 where fieldName.equalsIgnoringASCIICase("content-length"):
                if contentLength != nil || contentLengthTooLong { throw .malformedRequest("two Content-Length header fields") }
                if let length = try HTTPSyntax.contentLength(valueBytes, limit: maximumBodyLength) {
                    contentLength = length
                } else {
                    contentLengthTooLong = true
                }
            case 17 where fieldName.equalsIgnoringASCIICase("transfer-encoding"):
                if chunked { throw .malformedRequest("two Transfer-Encoding header fields") }
                if isHTTP10 { throw .malformedRequest("Transfer-Encoding in an HTTP/1.0 request") }
                // Only `chunked` alone is a coding this server decodes (nginx answers the same).
                guard value.utf8.count == 7, value.equalsIgnoringASCIICase("chunked") else { throw .unsupportedTransferCoding(value) }
                chunked = true
            case 10 where fieldName.equalsIgnoringASCIICase("connection"):
                hasConnectionField = true
            case 6 where fieldName.equalsIgnoringASCIICase("expect"):
                expectsContinue = value.lowercased() == "100-continue"
            default:
                break
            }
        }
        if chunked && (contentLength != nil || contentLengthTooLong) {
            throw .malformedRequest("both Content-Length and Transfer-Encoding: chunked")
        }
        if contentLengthTooLong { throw .bodyTooLong(limit: maximumBodyLength) }
        let length = headEnd - start
        let body: Body = chunked ? .chunked : .length(contentLength ?? 0)
        let hasBody = chunked || (contentLength ?? 0) > 0
        continueOwed = expectsContinue && hasBody && !bodyAlreadyHere(from: start + length, body)
        return Head(length: length, body: body, chunkCursor: start + length,
                    method: Self.text(ofMethod: method), target: String(decoding: target, as: UTF8.self),
                    // The request line's checks leave two versions.
                    version: isHTTP10 ? "HTTP/1.0" : "HTTP/1.1", headers: headers, hasConnectionField: hasConnectionField)
    }

    /// The method's text: `GET`, the commonest, without decoding its bytes.
    static func text(ofMethod bytes: ArraySlice<UInt8>) -> String {
        let start = bytes.startIndex
        if bytes.count == 3, bytes[start] == UInt8(ascii: "G"), bytes[start + 1] == UInt8(ascii: "E"), bytes[start + 2] == UInt8(ascii: "T") { return "GET" }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A field name's text: the names most clients send, as literals, without decoding their bytes
    /// (a `String` decoded from bytes costs about 200 instructions, the comparison a few dozen).
    private static func text(ofFieldName bytes: ArraySlice<UInt8>) -> String { commonFieldNames.text(of: bytes) }

    /// The field names ``text(ofFieldName:)`` knows, as curl, browsers, wrk and h2load spell them.
    private static let commonFieldNames = HTTPLiteralTable(["Host", "User-Agent", "Accept", "Connection", "Content-Length", "Content-Type", "Accept-Encoding"],
                                                           lowerCasedToo: true)

    /// Checks the request line that ends at `end` (before its CR LF) and returns its three words.
    @discardableResult
    private func checkRequestLine(upTo end: Int) throws(FramingError) -> (ArraySlice<UInt8>, ArraySlice<UInt8>, ArraySlice<UInt8>) {
        let line = buffer[start..<end]
        if let words = Self.usualRequestLine(line) {
            // Only the target's form and path are left to check; the rest passed in the one pass.
            try HTTPSyntax.checkTarget(words.1, method: words.0)
            return words
        }
        try HTTPSyntax.checkRequestStart(line)
        if line.contains(0x0D) { throw .malformedRequest("a bare CR in the request line: \(HTTPSyntax.quoted(line))") }
        guard let parts = Self.threeWords(line) else {
            throw .malformedRequest("the request line is not METHOD TARGET VERSION")
        }
        try HTTPSyntax.checkRequestLine(method: parts.0, target: parts.1, version: parts.2)
        return parts
    }

    /// The three words of a request line of the usual shape, read in one pass: a token method, one
    /// space, a target of visible bytes (none below `!`, no DEL), one space, `HTTP/1.1` or
    /// `HTTP/1.0`; `nil` for any other line, which the full checks then take (and refuse with
    /// their own messages, or accept). Every line it accepts, those checks accept too, but for
    /// the target's form and path, left to ``HTTPSyntax/checkTarget(_:method:)``.
    static func usualRequestLine(_ line: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, ArraySlice<UInt8>, ArraySlice<UInt8>)? {
        let found: (method: Int, targetEnd: Int)? = line.withUnsafeBufferPointer { bytes in
            var index = 0
            while index < bytes.count && HTTPSyntax.isTokenByte(bytes[index]) { index += 1 }
            let method = index
            guard method > 0, index < bytes.count, bytes[index] == 0x20 else { return nil }
            index += 1
            let targetStart = index
            while index < bytes.count, bytes[index] > 0x20, bytes[index] != 0x7F { index += 1 }
            guard index > targetStart, bytes.count - index == 9, bytes[index] == 0x20 else { return nil }
            // "HTTP/1." and then 1 or 0, compared as one 8-byte word.
            let version = UnsafeRawPointer(bytes.baseAddress! + index + 1).loadUnaligned(as: UInt64.self)
            let http1 = UInt64(littleEndian: version) & 0x00FF_FFFF_FFFF_FFFF
            let minor = UInt64(littleEndian: version) >> 56
            guard http1 == 0x002E_312F_5054_5448, minor == 0x30 || minor == 0x31 else { return nil }
            return (method, index)
        }
        guard let found else { return nil }
        let start = line.startIndex
        return (line[start..<start + found.method], line[start + found.method + 1..<start + found.targetEnd],
                line[start + found.targetEnd + 1..<line.endIndex])
    }

    private func bodyAlreadyHere(from bodyStart: Int, _ body: Body) -> Bool {
        if case .length(let count) = body { return buffer.count - bodyStart >= count }
        return false
    }

    /// The index just past the blank line that ends the head (CRLF CRLF, or LF LF), if it is here.
    private mutating func findHeadEnd() -> Int? {
        // What was searched before is not searched again, but for the last two bytes, which may
        // begin an end that the new bytes complete.
        let from = max(start, scan.searched - 2)
        // Over the bytes in place: indexing the array checks bounds at every byte.
        let found: Int? = buffer.withUnsafeBufferPointer { bytes in
            var index = from
            while index < bytes.count {
                if bytes[index] == 0x0A {
                    if index + 1 < bytes.count && bytes[index + 1] == 0x0A { return index + 2 }
                    if index + 2 < bytes.count && bytes[index + 1] == 0x0D && bytes[index + 2] == 0x0A { return index + 3 }
                }
                index += 1
            }
            return nil
        }
        if found == nil { scan.searched = buffer.count }
        return found
    }

    /// Walks the chunks from the cursor; returns the end of the request once the last chunk and the
    /// trailers have arrived, remembering how far it got otherwise.
    private func chunkedEnd(_ head: inout Head) throws(FramingError) -> Int? {
        let bodyStart = start + head.length
        while true {
            if let trailersStart = head.trailersStart {
                // Trailer field lines, each checked as a header's, then an empty line; together
                // they count towards the head's limit.
                guard let trailer = lineEnd(from: head.chunkCursor) else {
                    if buffer.count - trailersStart > maximumHeadLength { throw .headTooLong(limit: maximumHeadLength) }
                    return nil
                }
                if trailer.content == head.chunkCursor { return trailer.next }
                if trailer.next - trailersStart > maximumHeadLength { throw .headTooLong(limit: maximumHeadLength) }
                _ = try HTTPSyntax.field(buffer[head.chunkCursor..<trailer.content])
                head.chunkCursor = trailer.next
                continue
            }
            guard let lineEnd = lineEnd(from: head.chunkCursor) else {
                // A size already past the limit is refused as such before its line ends, so that
                // how the bytes were cut does not change the answer.
                let digits = buffer[head.chunkCursor...].prefix(while: HTTPSyntax.isHexDigit)
                let room = maximumBodyLength - (head.chunkCursor - bodyStart)
                if !digits.isEmpty {
                    let size = room < 0 ? nil : try HTTPSyntax.chunkSize(digits, limit: room)
                    if size == nil { throw .bodyTooLong(limit: maximumBodyLength) }
                }
                if buffer.count - head.chunkCursor > Self.maximumChunkLineLength { throw .malformedRequest("a chunk-size line is too long") }
                return nil
            }
            var sizeText = buffer[head.chunkCursor..<lineEnd.content]
            var extensions = sizeText[sizeText.endIndex...]
            if let semicolon = sizeText.firstIndex(of: UInt8(ascii: ";")) {
                extensions = sizeText[semicolon...]
                sizeText = sizeText[..<semicolon]
            }
            sizeText = sizeText.trimmingSpaces()
            // The size is compared with what the body may still hold before anything is added to it.
            let room = maximumBodyLength - (lineEnd.next - bodyStart)
            guard let size = try HTTPSyntax.chunkSize(sizeText, limit: max(0, room)), room >= 0 else {
                throw .bodyTooLong(limit: maximumBodyLength)
            }
            if lineEnd.content - head.chunkCursor > Self.maximumChunkLineLength { throw .malformedRequest("a chunk-size line is too long") }
            if let control = extensions.first(where: { HTTPSyntax.isControl($0) && $0 != 0x09 }) {
                throw .malformedRequest("a chunk extension holds a control character (\(HTTPSyntax.hex(control)))")
            }
            if size == 0 {
                head.trailersStart = lineEnd.next
                head.chunkCursor = lineEnd.next
                continue
            }
            let dataEnd = lineEnd.next + size
            guard let after = self.lineEnd(from: dataEnd) else {
                if buffer.count > dataEnd + 2 { throw .malformedRequest("chunk data is not followed by CRLF") }
                return nil
            }
            guard after.content == dataEnd else { throw .malformedRequest("chunk data is longer than its size") }
            guard head.chunks.count < maximumChunkCount else {
                throw .malformedRequest("a chunked body of more than \(maximumChunkCount) chunks")
            }
            head.chunks.append(lineEnd.next - start..<dataEnd - start)
            head.chunkCursor = after.next
        }
    }

    /// The longest chunk-size line (size and extensions) accepted, in bytes.
    static let maximumChunkLineLength = 1024

    /// The end of the line starting at `index`: where its content ends (before CR LF) and where the next starts.
    private func lineEnd(from index: Int) -> (content: Int, next: Int)? {
        guard index <= buffer.count, let newline = buffer[index...].firstIndex(of: 0x0A) else { return nil }
        let content = newline > index && buffer[newline - 1] == 0x0D ? newline - 1 : newline
        return (content, newline + 1)
    }
}
