import Testing
import TestSupport
import MockServerHTTP2

/// A client that writes HTTP/2 frames byte by byte (so it can send what no well-behaved client
/// would: wrong lengths, reserved bits, frames out of order) and reads the server's frames back as
/// one line each: `HEADERS 1 200`, `DATA 1 7 END_STREAM`, `RST_STREAM 3 PROTOCOL_ERROR`,
/// `GOAWAY 1 FRAME_SIZE_ERROR` (last stream id, code), `PING ACK`, `closed`.
///
/// Its own writer on purpose: the frames and field blocks it sends are built here from the RFC's
/// layouts, not by the codec under test. Field blocks are HPACK literals without indexing and
/// without Huffman coding (RFC 7541 §6.2.2), so every byte of a name or value goes as given.
final class HTTP2RawClient {
    private let client: TestClient
    /// Reads the server's field blocks (its dynamic table lasts the connection).
    private var decoder = HPACKDecoder()

    /// The frame types (RFC 9113 §6).
    enum Kind: UInt8 {
        case data = 0, headers, priority, rstStream, settings, pushPromise, ping, goAway, windowUpdate, continuation
    }

    /// The flags the tests use.
    static let endStream: UInt8 = 0x1, ack: UInt8 = 0x1, endHeaders: UInt8 = 0x4, padded: UInt8 = 0x8, priorityFlag: UInt8 = 0x20

    /// The PING payload that closes each round: its ACK means the server read everything before it.
    static let roundMark: [UInt8] = Array("roundend".utf8)

    init(port: UInt16) throws {
        client = try TestClient(port: port, timeout: 30)
    }

    // MARK: Writing

    /// A frame: the nine-byte header (§4.1) and `payload`; `reserved` sets the stream id's reserved bit.
    static func frame(_ type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, reserved: Bool = false, _ payload: [UInt8] = []) -> [UInt8] {
        let length = payload.count
        var bytes: [UInt8] = [UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length), type, flags]
        bytes += uint32(stream | (reserved ? 0x8000_0000 : 0))
        return bytes + payload
    }

    static func frame(_ kind: Kind, flags: UInt8 = 0, stream: UInt32 = 0, reserved: Bool = false, _ payload: [UInt8] = []) -> [UInt8] {
        frame(kind.rawValue, flags: flags, stream: stream, reserved: reserved, payload)
    }

    static func uint32(_ value: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    /// A SETTINGS frame's parameters (§6.5.1).
    static func settings(_ parameters: [(UInt16, UInt32)] = [], flags: UInt8 = 0, stream: UInt32 = 0) -> [UInt8] {
        frame(.settings, flags: flags, stream: stream, parameters.flatMap { [UInt8($0.0 >> 8), UInt8($0.0 & 0xFF)] + uint32($0.1) })
    }

    /// The connection preface and an empty SETTINGS frame, then the acknowledgement of the server's
    /// SETTINGS (sent at once: the server sends its SETTINGS before reading anything).
    static let preface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + settings() + settings(flags: ack)

    /// A field block of literals without indexing, new names, no Huffman coding (RFC 7541 §6.2.2).
    static func block(_ fields: [(String, String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (name, value) in fields {
            bytes.append(0)
            bytes += string(Array(name.utf8))
            bytes += string(Array(value.utf8))
        }
        return bytes
    }

    /// A string literal (RFC 7541 §5.2) with a 7-bit prefix length (§5.1), not Huffman coded.
    private static func string(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var length = bytes.count
        if length < 127 {
            out.append(UInt8(length))
        } else {
            out.append(127)
            length -= 127
            while length >= 128 {
                out.append(UInt8(length & 0x7F | 0x80))
                length >>= 7
            }
            out.append(UInt8(length))
        }
        return out + bytes
    }

    /// A GET request's fields: the four pseudo-headers, then `extra`.
    static func get(_ path: String = "/", extra: [(String, String)] = []) -> [(String, String)] {
        [(":method", "GET"), (":scheme", "http"), (":path", path), (":authority", "localhost")] + extra
    }

    /// A HEADERS frame carrying `fields` whole (END_HEADERS), ending the stream unless told not to.
    static func headers(_ stream: UInt32, _ fields: [(String, String)], endStream: Bool = true) -> [UInt8] {
        frame(.headers, flags: endHeaders | (endStream ? Self.endStream : 0), stream: stream, block(fields))
    }

    /// Sends bytes as they are.
    func send(_ bytes: [UInt8]) throws {
        try client.send(bytes)
    }

    // MARK: Reading

    /// Reads an HTTP/1.1 response's head (a `101 Switching Protocols`), its lines up to the empty one.
    func readResponseHead() throws -> [String] {
        var lines: [String] = []
        while case let line = try client.readLine(), !line.isEmpty { lines.append(line) }
        return lines
    }

    /// Sends each round's bytes followed by a PING, and reads the server's frames as lines until that
    /// PING's ACK, or to the end of the connection (`closed`). The server's SETTINGS and its
    /// WINDOW_UPDATEs are left out (these unless `windowUpdates`).
    /// The acknowledgement of the preface's SETTINGS is left out too; later ones are `SETTINGS ACK`.
    func exchange(_ rounds: [[UInt8]], windowUpdates: Bool = false) throws -> [String] {
        var lines: [String] = []
        var prefaceAcknowledged = false
        for round in rounds {
            try send(round + Self.frame(.ping, Self.roundMark))
            while true {
                guard let line = try readLine(windowUpdates: windowUpdates) else { continue }
                if line == "SETTINGS ACK", !prefaceAcknowledged {
                    prefaceAcknowledged = true
                    continue
                }
                lines.append(line)
                // After a GOAWAY the server must close (§5.4.1): read on to the end.
                if line == "PING ACK" || line == "closed" { break }
            }
            if lines.last != "PING ACK" { break }
        }
        return lines
    }

    /// The next frame as a line, nil for one left out; `closed` when the server closed.
    func readLine(windowUpdates: Bool = false) throws -> String? {
        guard let head = try? client.read(count: 9) else { return "closed" }
        let length = Int(head[0]) << 16 | Int(head[1]) << 8 | Int(head[2])
        let type = head[3], flags = head[4]
        let stream = UInt32(head[5] & 0x7F) << 24 | UInt32(head[6]) << 16 | UInt32(head[7]) << 8 | UInt32(head[8])
        guard let payload = try? client.read(count: length) else { return "closed" }
        func word(_ at: Int) -> UInt32 { UInt32(payload[at]) << 24 | UInt32(payload[at + 1]) << 16 | UInt32(payload[at + 2]) << 8 | UInt32(payload[at + 3]) }
        switch Kind(rawValue: type) {
        case .headers?:
            var fields = (try? decoder.decode(payload)) ?? []
            fields.removeAll { $0.name != Array(":status".utf8) && !$0.name.starts(with: Array("grpc".utf8)) }
            return "HEADERS \(stream) " + fields.map { String(decoding: $0.value, as: UTF8.self) }.joined(separator: " ")
                + (flags & Self.endStream != 0 ? " END_STREAM" : "")
        case .data?:
            return "DATA \(stream) \(length)" + (flags & Self.endStream != 0 ? " END_STREAM" : "")
        case .rstStream?:
            return "RST_STREAM \(stream) \(HTTP2ErrorCode(rawValue: word(0)))"
        case .goAway?:
            return "GOAWAY \(word(0)) \(HTTP2ErrorCode(rawValue: word(4)))"
        case .ping?:
            guard flags & Self.ack != 0 else { return "PING" }
            return payload == Self.roundMark ? "PING ACK" : "PING ACK " + String(decoding: payload, as: UTF8.self)
        case .windowUpdate?:
            return windowUpdates ? "WINDOW_UPDATE \(stream) \(word(0))" : nil
        case .settings?:
            return flags & Self.ack != 0 ? "SETTINGS ACK" : nil
        default:
            return "frame \(type) on \(stream)"
        }
    }
}

