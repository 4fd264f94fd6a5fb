import MockServerCore
/// Reads HTTP/1.x responses from bytes as they arrive, the way a client does: interim `1xx`
/// responses are skipped, and a body is delimited by `Content-Length`, by chunked coding (decoded
/// here), by the request (`HEAD`) or status (`204`, `304`), or by the end of the connection.
///
/// Pure code: no socket, no Foundation.
package struct HTTPResponseParser {
    /// What the bytes so far gave.
    package enum Event: Equatable {
        /// A final response's head.
        case head(HTTPResponseHead)
        /// A piece of the body (decoded when chunked).
        case body([UInt8])
        /// The response is complete.
        case end
    }

    /// Why the bytes are not a response.
    package enum ParseError: Error, Equatable, CustomStringConvertible {
        /// The status line or a header line cannot be read.
        case malformed(String)
        /// The connection ended before the response did; `bodyBytes` of it had come.
        case truncated(bodyBytes: Int)

        package var description: String {
            switch self {
            case .malformed(let what): "malformed response: \(what)"
            case .truncated(let count): "the connection ended before the response did (\(count) body bytes came)"
            }
        }
    }

    private enum State {
        case head
        case fixed(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case untilClose
        case done
    }

    /// Whether the request was `HEAD` (in any case): its response has no body.
    private let answersHEAD: Bool
    private var buffer: [UInt8] = []
    private var state = State.head
    private var bodyBytes = 0
    /// The trailer fields of a chunked body read so far (gRPC's `grpc-status`, say); empty until the
    /// last chunk's trailer section comes.
    package private(set) var trailers = HTTPHeaderFields()
    /// Whether the final head has a `Connection` field listing `close` (any case), as
    /// `head.headers.hasToken("close", in: "Connection")` tells: read off the head's bytes as it is
    /// parsed, so that a client deciding whether to keep the connection asks no header list.
    package private(set) var closesConnection = false
    /// What the head being parsed says about its body, read off the bytes of its fields.
    private struct Framing {
        /// Whether a `Transfer-Encoding` field lists `chunked`.
        var chunked = false
        /// The value of the first `Content-Length` field.
        var contentLength: String?
        /// Whether a `Connection` field lists `close`.
        var closes = false
    }

    /// The most bytes held while a head, a chunk-size line or a trailer line has not ended.
    private let maximumHeadLength: Int

    /// A parser for the response to a request with `requestMethod`; a head (or a chunk-size or
    /// trailer line) still unfinished after `maximumHeadLength` bytes is malformed, so that a peer
    /// sending one without end is not buffered without end.
    package init(requestMethod: String, maximumHeadLength: Int = .max) {
        answersHEAD = requestMethod.equalsIgnoringASCIICase("HEAD")
        self.maximumHeadLength = maximumHeadLength
    }

    /// Whether the response is complete.
    package var isComplete: Bool {
        if case .done = state { true } else { false }
    }

    /// Takes `bytes` and returns what they complete.
    package mutating func append(_ bytes: [UInt8]) throws -> [Event] {
        buffer.append(contentsOf: bytes)
        return try events()
    }

    /// Takes `bytes` as a connection read them, without an array made of them first, and returns
    /// what they complete.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) throws -> [Event] {
        buffer.append(contentsOf: bytes)
        return try events()
    }

    /// What the bytes taken so far complete.
    private mutating func events() throws -> [Event] {
        var events: [Event] = []
        // Room for what one read most often completes, a head, a body and the end, in one allocation.
        events.reserveCapacity(3)
        while try step(into: &events) {}
        switch state {
        case .head, .chunkSize, .chunkDataEnd, .trailers:
            if buffer.count > maximumHeadLength { throw ParseError.malformed("a head or line longer than \(maximumHeadLength) bytes") }
        case .fixed, .chunkData, .untilClose, .done:
            break
        }
        return events
    }

    /// The connection ended: the end of a body delimited by it, or an error when the response was
    /// not complete.
    package mutating func finish() throws -> [Event] {
        switch state {
        case .done:
            return []
        case .untilClose:
            state = .done
            return [.end]
        default:
            throw ParseError.truncated(bodyBytes: bodyBytes)
        }
    }

    /// Makes one step of progress; `false` when more bytes are needed (or the response is done).
    private mutating func step(into events: inout [Event]) throws -> Bool {
        switch state {
        case .done:
            return false
        case .head:
            guard let (head, framing) = try takeHead() else { return false }
            if (100..<200).contains(head.status) && head.status != 101 { return true }
            events.append(.head(head))
            closesConnection = framing.closes
            if answersHEAD || head.status == 204 || head.status == 304 || (100..<200).contains(head.status) {
                finishBody(&events)
            } else if framing.chunked {
                state = .chunkSize
            } else if let length = framing.contentLength.flatMap({ Int($0) }) {
                if length < 0 { throw ParseError.malformed("Content-Length \(length)") }
                state = .fixed(remaining: length)
                if length == 0 { finishBody(&events) }
            } else {
                state = .untilClose
            }
            return true
        case .fixed(let remaining):
            guard !buffer.isEmpty else { return false }
            let count = min(remaining, buffer.count)
            emit(count, into: &events)
            if remaining == count { finishBody(&events) } else { state = .fixed(remaining: remaining - count) }
            return true
        case .untilClose:
            guard !buffer.isEmpty else { return false }
            emit(buffer.count, into: &events)
            return false
        case .chunkSize:
            guard let line = takeLine() else { return false }
            let text = line.prefix { $0 != ";" }.trimmingSpaces()
            guard let size = Int(text, radix: 16), size >= 0 else { throw ParseError.malformed("chunk size \"\(line)\"") }
            state = size == 0 ? .trailers : .chunkData(remaining: size)
            return true
        case .chunkData(let remaining):
            guard !buffer.isEmpty else { return false }
            let count = min(remaining, buffer.count)
            emit(count, into: &events)
            state = remaining == count ? .chunkDataEnd : .chunkData(remaining: remaining - count)
            return true
        case .chunkDataEnd:
            guard let line = takeLine() else { return false }
            guard line.isEmpty else { throw ParseError.malformed("chunk not followed by CRLF") }
            state = .chunkSize
            return true
        case .trailers:
            guard let line = takeLine() else { return false }
            if line.isEmpty {
                finishBody(&events)
            } else if let colon = line.firstIndex(of: ":") {
                trailers.add(name: String(line[..<colon]), value: String(line[line.index(after: colon)...]).trimmingSpaces())
            } else {
                throw ParseError.malformed("trailer field \"\(line)\"")
            }
            return true
        }
    }

    private mutating func finishBody(_ events: inout [Event]) {
        state = .done
        events.append(.end)
    }

    private mutating func emit(_ count: Int, into events: inout [Event]) {
        if count == buffer.count {
            // All of what is buffered is body: it goes as it is, neither copied nor shifted.
            events.append(.body(buffer))
            buffer = []
        } else {
            events.append(.body(Array(buffer.prefix(count))))
            buffer.removeFirst(count)
        }
        bodyBytes += count
    }

    /// One line without its CRLF (or LF), taken from the buffer.
    private mutating func takeLine() -> String? {
        guard let newline = buffer.firstIndex(of: 0x0A) else { return nil }
        var end = newline
        if end > 0 && buffer[end - 1] == 0x0D { end -= 1 }
        let line = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeFirst(newline + 1)
        return line
    }

    /// The head, once all of it has come, and what its fields say about the body.
    private mutating func takeHead() throws -> (HTTPResponseHead, Framing)? {
        guard let end = headEnd() else { return nil }
        // Read off the bytes in place, line by line (in a `String`, CR LF is one character).
        func line(from index: Int) -> (content: ArraySlice<UInt8>, next: Int) {
            let newline = buffer[index..<end.start].firstIndex(of: 0x0A) ?? end.start
            let content = newline > index && buffer[newline - 1] == 0x0D ? newline - 1 : newline
            return (buffer[index..<content], newline + 1)
        }
        let (statusLine, afterStatus) = line(from: 0)
        let space = statusLine.firstIndex(of: 0x20) ?? statusLine.endIndex
        let codeEnd = statusLine[space...].dropFirst().firstIndex(of: 0x20) ?? statusLine.endIndex
        let code = statusLine[space..<codeEnd].dropFirst()
        guard statusLine[..<space].starts(with: "HTTP/".utf8), space < statusLine.endIndex, code.count == 3,
              code.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), code.first != 0x30 else {
            throw ParseError.malformed("status line \"\(String(decoding: statusLine, as: UTF8.self))\"")
        }
        let status = code.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        var headers = HTTPHeaderFields()
        // One field a line at most: the list is made once, not grown field by field.
        if afterStatus < end.start { headers.reserveCapacity(buffer[afterStatus..<end.start].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }) }
        var framing = Framing()
        var ids = HTTPResponseFieldIDs()
        var cursor = afterStatus
        while cursor < end.start {
            let (line, next) = line(from: cursor)
            cursor = next
            if line.isEmpty { continue }
            guard let colon = line.firstIndex(of: 0x3A) else { throw ParseError.malformed("header line \"\(String(decoding: line, as: UTF8.self))\"") }
            let name = HTTPResponseFieldName.named(line[..<colon])
            // Trimmed here, index by index, rather than through Core's generic `trimmingSpaces()`.
            var start = colon + 1
            var stop = line.endIndex
            while start < stop, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
            while stop > start, line[stop - 1] == 0x20 || line[stop - 1] == 0x09 { stop -= 1 }
            let value = String(decoding: line[start..<stop], as: UTF8.self)
            switch name.kind {
            case .transferEncoding: framing.chunked = framing.chunked || HTTPFieldText.list(value, contains: "chunked")
            case .contentLength: framing.contentLength = framing.contentLength ?? value
            case .connection: framing.closes = framing.closes || HTTPFieldText.list(value, contains: "close")
            case .other: break
            }
            if let literal = name.literal { ids.note(literal, at: headers.count) }
            headers.add(name: name.text, value: value)
        }
        let response = HTTPResponseHead(version: HTTPResponseFieldName.version(statusLine[..<space]), status: status,
                                        reason: codeEnd < statusLine.endIndex ? HTTPResponseFieldName.reason(statusLine[(codeEnd + 1)...]) : "",
                                        headers: headers, fieldIDs: ids)
        buffer.removeFirst(end.afterward)
        return (response, framing)
    }

    /// Where the head ends (its last byte before the blank line, and the first byte after it).
    private func headEnd() -> (start: Int, afterward: Int)? {
        // From line feed to line feed, over the bytes in place.
        buffer.withUnsafeBufferPointer { buffer in
            var from = 0
            while let index = buffer[from...].firstIndex(of: 0x0A) {
                if index + 1 < buffer.count, buffer[index + 1] == 0x0A { return (index, index + 2) }
                if index + 2 < buffer.count, buffer[index + 1] == 0x0D, buffer[index + 2] == 0x0A {
                    return (index > 0 && buffer[index - 1] == 0x0D ? index - 1 : index, index + 3)
                }
                from = index + 1
            }
            return nil
        }
    }
}
