import MockServerHTTP

/// Takes the chunked transfer coding off a streamed body's sends (``MockServerHTTP/HTTPStreamedBody``
/// writes its pieces as HTTP/1.1 chunks): HTTP/2 carries each piece's bytes as DATA instead, and the
/// trailer section after the last chunk (a gRPC answer's `grpc-status`) as a closing HEADERS frame.
package struct HTTP2ChunkReader {
    /// Where the reading stands.
    private enum Phase {
        /// Chunks come.
        case chunks
        /// The last chunk (`0`) came: trailer fields come, up to an empty line.
        case trailers
        /// The trailer section ended: what follows is ignored.
        case finished
    }

    private var buffer: [UInt8] = []
    private var phase = Phase.chunks
    /// The fields of the trailer section read so far.
    private(set) var trailers: HTTPHeaderFields = [:]

    /// The body bytes that `bytes` completes; bytes of an unfinished chunk wait for the next call.
    mutating func take(_ bytes: [UInt8]) -> [UInt8] {
        buffer += bytes
        var body: [UInt8] = []
        var offset = 0
        while phase != .finished, let lineEnd = Self.crlf(in: buffer, from: offset) {
            if phase == .trailers {
                let line = String(decoding: buffer[offset..<lineEnd], as: UTF8.self)
                offset = lineEnd + 2
                guard !line.isEmpty else {
                    phase = .finished
                    break
                }
                if let colon = line.firstIndex(of: ":") {
                    let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
                    trailers.add(name: String(line[..<colon]), value: String(value.reversed().drop { $0 == " " || $0 == "\t" }.reversed()))
                }
                continue
            }
            guard let size = Self.chunkSize(buffer[offset..<lineEnd]) else {
                // Not chunked after all: the bytes go as they are.
                body += buffer[offset...]
                offset = buffer.count
                break
            }
            if size == 0 {
                phase = .trailers
                offset = lineEnd + 2
                continue
            }
            let dataStart = lineEnd + 2
            guard buffer.count >= dataStart + size + 2 else {
                // The chunk and its CRLF are not all here yet (a cut last piece, `"end": "cut"`,
                // never sends the rest: ``takeRest()`` gives it).
                break
            }
            body += buffer[dataStart..<(dataStart + size)]
            offset = dataStart + size + 2
        }
        if phase == .finished { offset = buffer.count }
        buffer.removeFirst(offset)
        return body
    }

    /// What is left of an unfinished chunk: the bytes a cut piece sent.
    mutating func takeRest() -> [UInt8] {
        guard phase == .chunks, let lineEnd = Self.crlf(in: buffer, from: 0) else { return [] }
        defer { buffer = [] }
        let size = Self.chunkSize(buffer[..<lineEnd]) ?? 0
        return Array(buffer[(lineEnd + 2)...].prefix(size))
    }

    /// The size a chunk-size line gives (extensions after `;` ignored), or nil when it is not one.
    private static func chunkSize(_ line: ArraySlice<UInt8>) -> Int? {
        Int(String(String(decoding: line, as: UTF8.self).prefix { $0 != ";" }.filter { $0 != " " }), radix: 16)
    }

    private static func crlf(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == 0x0D, bytes[index + 1] == 0x0A { return index }
            index += 1
        }
        return nil
    }
}
