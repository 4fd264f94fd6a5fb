import MockServerCore

/// One frame of a gRPC-Web body: a message, or the trailers that end an answer (the gRPC project's
/// PROTOCOL-WEB). Both have gRPC's 5-byte prefix, a flag byte and a 4-byte big-endian length; a
/// trailer frame's flag has its top bit set (`0x80`) and its bytes are the trailer fields as an
/// HTTP/1 header block with lower-case names (`grpc-status:0\r\n`). Pure code.
package enum GRPCWebFrame: Sendable, Hashable {
    /// A message, without its prefix (as it came, when its compressed flag is set).
    case message([UInt8])
    /// The trailers, in order.
    case trailers(HTTPHeaderFields)

    /// The flag bit that marks a trailer frame.
    package static let trailerFlag: UInt8 = 0x80

    /// The trailer frame of `fields`: each as `name:value\r\n`, the name lower-cased.
    package static func trailerFrame(_ fields: HTTPHeaderFields) -> [UInt8] {
        var block: [UInt8] = []
        for field in fields {
            block += Array(field.name.lowercased().utf8)
            block.append(UInt8(ascii: ":"))
            block += Array(field.value.utf8)
            block += [0x0D, 0x0A]
        }
        var frame = GRPCMessageCodec.frame(block)
        frame[0] = trailerFlag
        return frame
    }

    /// The frames of a (binary) gRPC-Web answer body, in order; reading stops after a trailer frame.
    ///
    /// - Throws: ``GRPCWebFrameError`` naming the first frame at fault (counted from 1).
    package static func frames(in body: [UInt8]) throws(GRPCWebFrameError) -> [GRPCWebFrame] {
        var frames: [GRPCWebFrame] = []
        var index = body.startIndex
        while index < body.endIndex {
            let number = frames.count + 1
            if case .trailers? = frames.last { throw .afterTrailers(frame: number) }
            let left = body.endIndex - index
            guard left >= GRPCMessageCodec.prefixSize else { throw .shortPrefix(frame: number, count: left) }
            let flag = body[index]
            let length = body[index + 1 ..< index + 5].reduce(0) { $0 << 8 | Int($1) }
            let start = index + GRPCMessageCodec.prefixSize
            guard length <= body.endIndex - start else {
                throw .lengthPastBody(frame: number, length: length, remaining: body.endIndex - start)
            }
            let bytes = Array(body[start ..< start + length])
            frames.append(flag & trailerFlag == 0 ? .message(bytes) : .trailers(try trailerFields(bytes, frame: number)))
            index = start + length
        }
        return frames
    }

    /// The fields of a trailer frame's block: lines ending in CRLF (or LF), each `name:value`, the
    /// value without its surrounding spaces.
    private static func trailerFields(_ block: [UInt8], frame: Int) throws(GRPCWebFrameError) -> HTTPHeaderFields {
        var fields = HTTPHeaderFields()
        for line in block.split(separator: 0x0A, omittingEmptySubsequences: true) {
            let text = String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
                throw .badTrailerLine(frame: frame, line: text)
            }
            fields.add(name: String(text[..<colon]), value: text[text.index(after: colon)...].trimmingSpaces())
        }
        return fields
    }
}
