/// Takes the chunked transfer coding off a streamed body's sends (``MockServerHTTP/HTTPStreamedBody``
/// writes its pieces as HTTP/1.1 chunks): HTTP/2 carries each piece's bytes as DATA instead.
struct HTTP2ChunkReader {
    private var buffer: [UInt8] = []
    /// Whether the last chunk (`0`) came: what follows is ignored.
    private(set) var finished = false

    /// The body bytes that `bytes` completes; bytes of an unfinished chunk wait for the next call.
    mutating func take(_ bytes: [UInt8]) -> [UInt8] {
        buffer += bytes
        var body: [UInt8] = []
        var offset = 0
        while !finished, let lineEnd = Self.crlf(in: buffer, from: offset) {
            let sizeText = String(decoding: buffer[offset..<lineEnd], as: UTF8.self).prefix { $0 != ";" }
            guard let size = Int(String(sizeText.filter { $0 != " " }), radix: 16) else {
                // Not chunked after all: the bytes go as they are.
                body += buffer[offset...]
                offset = buffer.count
                break
            }
            if size == 0 {
                finished = true
                offset = buffer.count
                break
            }
            let dataStart = lineEnd + 2
            guard buffer.count >= dataStart + size else {
                // A cut last piece (`"end": "cut"`) sends part of a chunk: it goes as it is.
                break
            }
            body += buffer[dataStart..<(dataStart + size)]
            offset = min(buffer.count, dataStart + size + 2)
        }
        buffer.removeFirst(offset)
        return body
    }

    /// What is left of an unfinished chunk: the bytes a cut piece sent.
    mutating func takeRest() -> [UInt8] {
        guard let lineEnd = Self.crlf(in: buffer, from: 0) else { return [] }
        defer { buffer = [] }
        return Array(buffer[(lineEnd + 2)...])
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
