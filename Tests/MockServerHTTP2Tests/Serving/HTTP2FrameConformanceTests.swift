import Testing
import TestSupport
import MockServer

private typealias F = HTTP2RawClient

/// One conformance case: what the client sends, round by round (each round ends with a PING whose
/// ACK says the server read it all), and the server's frames in answer, one line each.
struct HTTP2RawCase: Sendable, CustomTestStringConvertible {
    let name: String
    let rounds: [[UInt8]]
    let expected: [String]
    /// Whether the preface and the client's SETTINGS go before the first round.
    var prefaced = true
    var testDescription: String { name }
}

/// RFC 9113 §3–§8, frame by frame, against a real server on h2c with prior knowledge: each case
/// names its section, sends raw bytes (``HTTP2RawClient``) and expects the frames the RFC asks for:
/// the connection error (GOAWAY with the last stream processed and the code, then the end of the
/// connection), the stream error (RST_STREAM and the code), or the frame ignored and the connection
/// going on. The checklist is h2spec's, written anew.
@Suite("HTTP/2 conformance: RFC 9113 frame by frame", .offPool)
struct HTTP2FrameConformanceTests {
    private static let script = """
        {"scheme": "http", "responses": {
            "slow": {"pattern": "^[A-Z]+ /slow ", "commands": [{"pause": 5}, {"response": {"body": "late\\n"}}]},
            "hello": {"pattern": "^[A-Z]+ /", "commands": [{"response": {"body": "hi\\n"}}]}}}
        """

    // The pieces most cases start from.
    /// GET / on stream 1, ended: answered at once with "hi\n".
    private static let get1 = F.headers(1, F.get())
    /// Stream 1's answer to `get1`.
    private static let answered1 = ["HEADERS 1 200", "DATA 1 3 END_STREAM"]
    /// GET /slow on stream 1, ended: the stream is half closed (remote) while the answer waits.
    private static let slow1 = F.headers(1, F.get("/slow"))
    /// POST / on stream 1 without END_STREAM: the stream is open, its body to come.
    private static let open1 = F.headers(1, post(), endStream: false)
    private static let ping: [UInt8] = Array("pingpong".utf8)

    private static func post(_ extra: [(String, String)] = []) -> [(String, String)] {
        [(":method", "POST"), (":scheme", "http"), (":path", "/"), (":authority", "localhost")] + extra
    }

    private static func data(_ stream: UInt32, _ bytes: [UInt8], endStream: Bool = true) -> [UInt8] {
        F.frame(.data, flags: endStream ? F.endStream : 0, stream: stream, bytes)
    }

    private static func windowUpdate(_ stream: UInt32, _ increment: UInt32) -> [UInt8] {
        F.frame(.windowUpdate, stream: stream, F.uint32(increment))
    }

    /// A request whose fields are `fields`, expected to be malformed (§8.1.1): RST_STREAM PROTOCOL_ERROR.
    private static func malformed(_ name: String, _ fields: [(String, String)]) -> HTTP2RawCase {
        HTTP2RawCase(name: name, rounds: [F.headers(1, fields)], expected: ["RST_STREAM 1 PROTOCOL_ERROR", "PING ACK"])
    }

    static let cases: [HTTP2RawCase] = [
        // §3.4 The connection preface
        HTTP2RawCase(name: "§3.4 the first frame after the preface is not SETTINGS: PROTOCOL_ERROR",
                     rounds: [Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"], prefaced: false),
        // §4.1 Frame format
        HTTP2RawCase(name: "§4.1 a frame of an unknown type, on the connection and on a stream: ignored",
                     rounds: [F.frame(0x20, flags: 0xFF, stream: 0, [1, 2, 3]) + F.frame(0x21, stream: 1, [4])], expected: ["PING ACK"]),
        HTTP2RawCase(name: "§4.1 a PING with undefined flags: the flags ignored, answered",
                     rounds: [F.frame(.ping, flags: 0xF6, ping)], expected: ["PING ACK pingpong", "PING ACK"]),
        HTTP2RawCase(name: "§4.1 the reserved bit set in a PING's stream identifier: ignored, answered",
                     rounds: [F.frame(.ping, reserved: true, ping)], expected: ["PING ACK pingpong", "PING ACK"]),
        // §4.2 Frame size
        HTTP2RawCase(name: "§4.2 a DATA frame of 2^14 bytes, the default SETTINGS_MAX_FRAME_SIZE: accepted",
                     rounds: [open1 + data(1, Array(repeating: 0x61, count: 16_384))], expected: answered1 + ["PING ACK"]),
        HTTP2RawCase(name: "§4.2 a DATA frame past SETTINGS_MAX_FRAME_SIZE: FRAME_SIZE_ERROR",
                     rounds: [open1 + data(1, Array(repeating: 0x61, count: 16_385))], expected: ["GOAWAY 1 FRAME_SIZE_ERROR", "closed"]),
        HTTP2RawCase(name: "§4.2 a HEADERS frame past SETTINGS_MAX_FRAME_SIZE: FRAME_SIZE_ERROR (a connection error)",
                     rounds: [F.headers(1, F.get(extra: [("x-big", String(repeating: "b", count: 16_400))]))], expected: ["GOAWAY 0 FRAME_SIZE_ERROR", "closed"]),
        // §4.3 Field section compression
        HTTP2RawCase(name: "§4.3 a field block HPACK cannot decode (index 0): COMPRESSION_ERROR",
                     rounds: [F.frame(.headers, flags: F.endHeaders | F.endStream, stream: 1, [0x80])], expected: ["GOAWAY 1 COMPRESSION_ERROR", "closed"]),
        HTTP2RawCase(name: "§4.3 an indexed field past the static and dynamic tables: COMPRESSION_ERROR",
                     rounds: [F.frame(.headers, flags: F.endHeaders | F.endStream, stream: 1, [0x82, 0xC6])], expected: ["GOAWAY 1 COMPRESSION_ERROR", "closed"]),
        HTTP2RawCase(name: "§4.3 a dynamic table size update past SETTINGS_HEADER_TABLE_SIZE (8192 of 4096): COMPRESSION_ERROR",
                     rounds: [F.frame(.headers, flags: F.endHeaders | F.endStream, stream: 1, [0x3F, 0xE1, 0x3F] + F.block(F.get()))],
                     expected: ["GOAWAY 1 COMPRESSION_ERROR", "closed"]),
        HTTP2RawCase(name: "§4.3 a dynamic table size update after a field: COMPRESSION_ERROR",
                     rounds: [F.frame(.headers, flags: F.endHeaders | F.endStream, stream: 1, F.block(F.get()) + [0x20])],
                     expected: ["GOAWAY 1 COMPRESSION_ERROR", "closed"]),
        HTTP2RawCase(name: "§4.3 a PRIORITY frame between HEADERS and its CONTINUATION: PROTOCOL_ERROR",
                     rounds: [F.frame(.headers, flags: F.endStream, stream: 1, F.block(F.get()))
                         + F.frame(.priority, stream: 3, [0, 0, 0, 0, 16])
                         + F.frame(.continuation, flags: F.endHeaders, stream: 1, [])],
                     expected: ["GOAWAY 1 PROTOCOL_ERROR", "closed"]),
        // §5.1 Stream states
        HTTP2RawCase(name: "§5.1 idle: DATA: PROTOCOL_ERROR", rounds: [data(1, [1])], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§5.1 idle: RST_STREAM: PROTOCOL_ERROR",
                     rounds: [F.frame(.rstStream, stream: 1, F.uint32(8))], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§5.1 idle: WINDOW_UPDATE: PROTOCOL_ERROR", rounds: [windowUpdate(1, 100)], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§5.1 idle: CONTINUATION: PROTOCOL_ERROR",
                     rounds: [F.frame(.continuation, flags: F.endHeaders, stream: 1, F.block(F.get()))], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§5.1 half closed (remote): DATA: STREAM_CLOSED",
                     rounds: [slow1 + data(1, [1])], expected: ["RST_STREAM 1 STREAM_CLOSED", "PING ACK"]),
        HTTP2RawCase(name: "§5.1 half closed (remote): HEADERS: STREAM_CLOSED",
                     rounds: [slow1 + F.headers(1, [("x-after", "1")])], expected: ["RST_STREAM 1 STREAM_CLOSED", "PING ACK"]),
        HTTP2RawCase(name: "§5.1 closed: DATA after the client's RST_STREAM: STREAM_CLOSED",
                     rounds: [open1 + F.frame(.rstStream, stream: 1, F.uint32(8)) + data(1, [1])],
                     expected: ["RST_STREAM 1 STREAM_CLOSED", "PING ACK"]),
        HTTP2RawCase(name: "§5.1 closed: HEADERS on a stream that ended both ways: STREAM_CLOSED",
                     rounds: [get1, F.headers(1, F.get())], expected: answered1 + ["PING ACK", "GOAWAY 1 STREAM_CLOSED", "closed"]),
        HTTP2RawCase(name: "§5.1 closed: DATA on a stream that ended both ways: STREAM_CLOSED",
                     rounds: [get1, data(1, [1])], expected: answered1 + ["PING ACK", "RST_STREAM 1 STREAM_CLOSED", "PING ACK"]),
        // §5.1.1 Stream identifiers
        HTTP2RawCase(name: "§5.1.1 a client's HEADERS on an even stream: PROTOCOL_ERROR",
                     rounds: [F.headers(2, F.get())], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§5.1.1 a stream identifier below one used already: PROTOCOL_ERROR",
                     rounds: [F.headers(5, F.get("/slow")) + F.headers(3, F.get())], expected: ["GOAWAY 5 PROTOCOL_ERROR", "closed"]),
        // §5.1.2 Stream concurrency
        HTTP2RawCase(name: "§5.1.2 the 101st concurrent stream, past SETTINGS_MAX_CONCURRENT_STREAMS 100: REFUSED_STREAM",
                     rounds: [stride(from: 1, through: 201, by: 2).flatMap { F.headers(UInt32($0), F.get("/slow")) }],
                     expected: ["RST_STREAM 201 REFUSED_STREAM", "PING ACK"]),
        // §5.3.1 Stream dependencies
        HTTP2RawCase(name: "§5.3.1 HEADERS whose stream depends on itself: PROTOCOL_ERROR on the stream",
                     rounds: [F.frame(.headers, flags: F.endHeaders | F.endStream | F.priorityFlag, stream: 1, F.uint32(1) + [16] + F.block(F.get()))],
                     expected: ["RST_STREAM 1 PROTOCOL_ERROR", "PING ACK"]),
        HTTP2RawCase(name: "§5.3.1 PRIORITY whose stream depends on itself: PROTOCOL_ERROR on the stream",
                     rounds: [F.frame(.priority, stream: 1, F.uint32(1) + [16])], expected: ["RST_STREAM 1 PROTOCOL_ERROR", "PING ACK"]),
        // §5.4.1 Connection error handling
        HTTP2RawCase(name: "§5.4.1 a connection error names the last stream processed in its GOAWAY",
                     rounds: [get1, F.frame(.ping, stream: 1, ping)], expected: answered1 + ["PING ACK", "GOAWAY 1 PROTOCOL_ERROR", "closed"]),
        // §5.5 Extending HTTP/2
        HTTP2RawCase(name: "§5.5 a frame of an unknown type inside a field block: PROTOCOL_ERROR",
                     rounds: [F.frame(.headers, flags: F.endStream, stream: 1, F.block(F.get())) + F.frame(0x20, stream: 1, [1])
                         + F.frame(.continuation, flags: F.endHeaders, stream: 1, [])],
                     expected: ["GOAWAY 1 PROTOCOL_ERROR", "closed"]),
        // §6.1 DATA
        HTTP2RawCase(name: "§6.1 DATA on stream 0: PROTOCOL_ERROR", rounds: [data(0, [1])], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.1 DATA whose padding is the whole payload: PROTOCOL_ERROR",
                     rounds: [open1 + F.frame(.data, flags: F.endStream | F.padded, stream: 1, [4, 0, 0, 0])], expected: ["GOAWAY 1 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.1 padded DATA: the padding dropped, the request answered",
                     rounds: [open1 + F.frame(.data, flags: F.endStream | F.padded, stream: 1, [2, 0x61, 0, 0])], expected: answered1 + ["PING ACK"]),
        // §6.2 HEADERS
        HTTP2RawCase(name: "§6.2 HEADERS on stream 0: PROTOCOL_ERROR", rounds: [F.headers(0, F.get())], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.2 HEADERS whose padding is past its payload: PROTOCOL_ERROR",
                     rounds: [F.frame(.headers, flags: F.endHeaders | F.endStream | F.padded, stream: 1, [200] + F.block(F.get()))],
                     expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.2 HEADERS padded and with priority fields: answered",
                     rounds: [F.frame(.headers, flags: F.endHeaders | F.endStream | F.padded | F.priorityFlag, stream: 1,
                                      [3] + F.uint32(0) + [16] + F.block(F.get()) + [0, 0, 0])],
                     expected: answered1 + ["PING ACK"]),
        // §6.3 PRIORITY
        HTTP2RawCase(name: "§6.3 PRIORITY on stream 0: PROTOCOL_ERROR",
                     rounds: [F.frame(.priority, stream: 0, F.uint32(1) + [16])], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.3 PRIORITY of 4 bytes, not 5: FRAME_SIZE_ERROR on the stream",
                     rounds: [F.frame(.priority, stream: 1, F.uint32(0))], expected: ["RST_STREAM 1 FRAME_SIZE_ERROR", "PING ACK"]),
        HTTP2RawCase(name: "§6.3 PRIORITY on an idle stream, then the stream used: answered",
                     rounds: [F.frame(.priority, stream: 1, F.uint32(0) + [16]) + get1], expected: answered1 + ["PING ACK"]),
        // §6.4 RST_STREAM
        HTTP2RawCase(name: "§6.4 RST_STREAM on stream 0: PROTOCOL_ERROR",
                     rounds: [F.frame(.rstStream, stream: 0, F.uint32(8))], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.4 RST_STREAM of 3 bytes, not 4: FRAME_SIZE_ERROR",
                     rounds: [open1 + F.frame(.rstStream, stream: 1, [0, 0, 8])], expected: ["GOAWAY 1 FRAME_SIZE_ERROR", "closed"]),
        // §6.5 SETTINGS
        HTTP2RawCase(name: "§6.5 a SETTINGS acknowledgement with a payload: FRAME_SIZE_ERROR",
                     rounds: [F.frame(.settings, flags: F.ack, [0, 3, 0, 0, 0, 1])], expected: ["GOAWAY 0 FRAME_SIZE_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.5 SETTINGS on stream 1: PROTOCOL_ERROR", rounds: [F.settings(stream: 1)], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.5 SETTINGS of 3 bytes, not a multiple of 6: FRAME_SIZE_ERROR",
                     rounds: [F.frame(.settings, [0, 3, 0])], expected: ["GOAWAY 0 FRAME_SIZE_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.5 SETTINGS: acknowledged, an unknown parameter ignored",
                     rounds: [F.settings([(0xFF, 7)])], expected: ["SETTINGS ACK", "PING ACK"]),
        HTTP2RawCase(name: "§6.5.3 one parameter twice in a SETTINGS frame: the last value holds (a window of 1)",
                     rounds: [F.settings([(4, 100), (4, 1)]) + get1], expected: ["SETTINGS ACK", "HEADERS 1 200", "DATA 1 1", "PING ACK"]),
        HTTP2RawCase(name: "§6.5.2 SETTINGS_ENABLE_PUSH 2: PROTOCOL_ERROR", rounds: [F.settings([(2, 2)])], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.5.2 SETTINGS_INITIAL_WINDOW_SIZE 2^31: FLOW_CONTROL_ERROR",
                     rounds: [F.settings([(4, 1 << 31)])], expected: ["GOAWAY 0 FLOW_CONTROL_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.5.2 SETTINGS_MAX_FRAME_SIZE 16383: PROTOCOL_ERROR",
                     rounds: [F.settings([(5, 16_383)])], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.5.2 SETTINGS_MAX_FRAME_SIZE 2^24: PROTOCOL_ERROR",
                     rounds: [F.settings([(5, 1 << 24)])], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        // §6.7 PING
        HTTP2RawCase(name: "§6.7 PING: answered with an ACK of the same payload",
                     rounds: [F.frame(.ping, ping)], expected: ["PING ACK pingpong", "PING ACK"]),
        HTTP2RawCase(name: "§6.7 a PING ACK from the client: not answered",
                     rounds: [F.frame(.ping, flags: F.ack, ping)], expected: ["PING ACK"]),
        HTTP2RawCase(name: "§6.7 PING on stream 1: PROTOCOL_ERROR", rounds: [F.frame(.ping, stream: 1, ping)], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.7 PING of 6 bytes, not 8: FRAME_SIZE_ERROR",
                     rounds: [F.frame(.ping, [1, 2, 3, 4, 5, 6])], expected: ["GOAWAY 0 FRAME_SIZE_ERROR", "closed"]),
        // §6.8 GOAWAY
        HTTP2RawCase(name: "§6.8 GOAWAY on stream 1: PROTOCOL_ERROR",
                     rounds: [F.frame(.goAway, stream: 1, F.uint32(0) + F.uint32(0))], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.8 GOAWAY from the client: the stream it already opened is still answered",
                     rounds: [F.headers(1, F.get()) + F.frame(.goAway, F.uint32(0) + F.uint32(0))], expected: answered1 + ["PING ACK"]),
        // §6.9 WINDOW_UPDATE
        HTTP2RawCase(name: "§6.9 WINDOW_UPDATE of 0 on the connection: PROTOCOL_ERROR", rounds: [windowUpdate(0, 0)], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.9 WINDOW_UPDATE of 0 on a stream: PROTOCOL_ERROR on the stream",
                     rounds: [slow1 + windowUpdate(1, 0)], expected: ["RST_STREAM 1 PROTOCOL_ERROR", "PING ACK"]),
        HTTP2RawCase(name: "§6.9 WINDOW_UPDATE of 3 bytes, not 4: FRAME_SIZE_ERROR",
                     rounds: [F.frame(.windowUpdate, [0, 0, 1])], expected: ["GOAWAY 0 FRAME_SIZE_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.9.1 the connection's window past 2^31-1: FLOW_CONTROL_ERROR",
                     rounds: [windowUpdate(0, 0x7FFF_FFFF)], expected: ["GOAWAY 0 FLOW_CONTROL_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.9.1 a stream's window past 2^31-1: FLOW_CONTROL_ERROR on the stream",
                     rounds: [slow1 + windowUpdate(1, 0x7FFF_FFFF)], expected: ["RST_STREAM 1 FLOW_CONTROL_ERROR", "PING ACK"]),
        HTTP2RawCase(name: "§6.9.1 a stream window of 0: the response's head goes, its body waits for WINDOW_UPDATE",
                     rounds: [F.settings([(4, 0)]) + get1, windowUpdate(1, 2), windowUpdate(1, 10)],
                     expected: ["SETTINGS ACK", "HEADERS 1 200", "PING ACK", "DATA 1 2", "PING ACK", "DATA 1 1 END_STREAM", "PING ACK"]),
        HTTP2RawCase(name: "§6.9.2 SETTINGS_INITIAL_WINDOW_SIZE lowered under what was sent: the window goes negative and must be refilled",
                     rounds: [F.settings([(4, 2)]) + get1, F.settings([(4, 1)]), windowUpdate(1, 1), windowUpdate(1, 1)],
                     expected: ["SETTINGS ACK", "HEADERS 1 200", "DATA 1 2", "PING ACK", "SETTINGS ACK", "PING ACK", "PING ACK",
                                "DATA 1 1 END_STREAM", "PING ACK"]),
        HTTP2RawCase(name: "§6.9.2 SETTINGS_INITIAL_WINDOW_SIZE raising an open stream's window past 2^31-1: FLOW_CONTROL_ERROR",
                     rounds: [slow1 + windowUpdate(1, 0x7FFF_FFFF - 65_535) + F.settings([(4, 65_536)])], expected: ["GOAWAY 1 FLOW_CONTROL_ERROR", "closed"]),
        // §6.10 CONTINUATION
        HTTP2RawCase(name: "§6.10 a field block in HEADERS and two CONTINUATIONs: answered",
                     rounds: [{
                         let block = F.block(F.get())
                         return F.frame(.headers, flags: F.endStream, stream: 1, Array(block[..<10]))
                             + F.frame(.continuation, stream: 1, Array(block[10..<20]))
                             + F.frame(.continuation, flags: F.endHeaders, stream: 1, Array(block[20...]))
                     }()],
                     expected: answered1 + ["PING ACK"]),
        HTTP2RawCase(name: "§6.10 DATA inside a field block: PROTOCOL_ERROR",
                     rounds: [F.frame(.headers, stream: 1, F.block(F.get())) + data(1, [1])], expected: ["GOAWAY 1 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.10 a CONTINUATION on another stream than its HEADERS: PROTOCOL_ERROR",
                     rounds: [F.frame(.headers, flags: F.endStream, stream: 1, F.block(F.get())) + F.frame(.continuation, flags: F.endHeaders, stream: 3, [])],
                     expected: ["GOAWAY 1 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.10 CONTINUATION on stream 0: PROTOCOL_ERROR",
                     rounds: [F.frame(.continuation, flags: F.endHeaders, stream: 0, [])], expected: ["GOAWAY 0 PROTOCOL_ERROR", "closed"]),
        HTTP2RawCase(name: "§6.10 CONTINUATION after a HEADERS frame with END_HEADERS: PROTOCOL_ERROR",
                     rounds: [slow1 + F.frame(.continuation, flags: F.endHeaders, stream: 1, [])], expected: ["GOAWAY 1 PROTOCOL_ERROR", "closed"]),
        // §7 Error codes
        HTTP2RawCase(name: "§7 an unknown error code in RST_STREAM: no special behaviour",
                     rounds: [open1 + F.frame(.rstStream, stream: 1, F.uint32(0xFF))], expected: ["PING ACK"]),
        HTTP2RawCase(name: "§7 an unknown error code in GOAWAY: no special behaviour",
                     rounds: [F.frame(.goAway, F.uint32(0) + F.uint32(0xFF))], expected: ["PING ACK"]),
        // §8.1 HTTP message framing
        HTTP2RawCase(name: "§8.1 a second HEADERS frame without END_STREAM: PROTOCOL_ERROR on the stream",
                     rounds: [open1 + F.headers(1, [("x-trailer", "1")], endStream: false)], expected: ["RST_STREAM 1 PROTOCOL_ERROR", "PING ACK"]),
        HTTP2RawCase(name: "§8.1 trailers after the body: answered",
                     rounds: [open1 + data(1, [0x61], endStream: false) + F.headers(1, [("x-trailer", "1")])], expected: answered1 + ["PING ACK"]),
        HTTP2RawCase(name: "§8.1 a pseudo-header in trailers: PROTOCOL_ERROR on the stream",
                     rounds: [open1 + data(1, [0x61], endStream: false) + F.headers(1, [(":path", "/x")])],
                     expected: ["RST_STREAM 1 PROTOCOL_ERROR", "PING ACK"]),
        HTTP2RawCase(name: "§8.1.1 content-length 10 and 3 bytes of DATA: PROTOCOL_ERROR on the stream",
                     rounds: [F.headers(1, post([("content-length", "10")]), endStream: false) + data(1, [1, 2, 3])],
                     expected: ["RST_STREAM 1 PROTOCOL_ERROR", "PING ACK"]),
        HTTP2RawCase(name: "§8.1.1 content-length 1 and 3 bytes of DATA: PROTOCOL_ERROR on the stream",
                     rounds: [F.headers(1, post([("content-length", "1")]), endStream: false) + data(1, [1, 2, 3])],
                     expected: ["RST_STREAM 1 PROTOCOL_ERROR", "PING ACK"]),
        HTTP2RawCase(name: "§8.1.1 content-length that DATA matches: answered",
                     rounds: [F.headers(1, post([("content-length", "3")]), endStream: false) + data(1, [1, 2], endStream: false) + data(1, [3])],
                     expected: answered1 + ["PING ACK"]),
        // §8.2 HTTP fields
        malformed("§8.2 an upper-case field name: PROTOCOL_ERROR on the stream", F.get(extra: [("X-Upper", "1")])),
        malformed("§8.2.1 a field name with a space: PROTOCOL_ERROR on the stream", F.get(extra: [("x y", "1")])),
        malformed("§8.2.1 a field value with a line feed: PROTOCOL_ERROR on the stream", F.get(extra: [("x-a", "1\nx-b: 2")])),
        malformed("§8.2.1 a field value with leading white space: PROTOCOL_ERROR on the stream", F.get(extra: [("x-a", " 1")])),
        malformed("§8.2.2 a connection-specific field (connection): PROTOCOL_ERROR on the stream", F.get(extra: [("connection", "keep-alive")])),
        malformed("§8.2.2 te other than trailers: PROTOCOL_ERROR on the stream", F.get(extra: [("te", "gzip")])),
        HTTP2RawCase(name: "§8.2.2 te: trailers: answered", rounds: [F.headers(1, F.get(extra: [("te", "trailers")]))], expected: answered1 + ["PING ACK"]),
        // §8.3 HTTP control data
        malformed("§8.3 a pseudo-header after a regular field: PROTOCOL_ERROR on the stream",
                  [(":method", "GET"), (":scheme", "http"), ("x-a", "1"), (":path", "/")]),
        malformed("§8.3 an unknown pseudo-header: PROTOCOL_ERROR on the stream", F.get(extra: [(":foo", "1")])),
        malformed("§8.3 a response pseudo-header (:status) in a request: PROTOCOL_ERROR on the stream", [(":status", "200")] + F.get()),
        malformed("§8.3.1 :method twice: PROTOCOL_ERROR on the stream", [(":method", "GET")] + F.get()),
        malformed("§8.3.1 no :method: PROTOCOL_ERROR on the stream", [(":scheme", "http"), (":path", "/")]),
        malformed("§8.3.1 no :scheme: PROTOCOL_ERROR on the stream", [(":method", "GET"), (":path", "/")]),
        malformed("§8.3.1 no :path: PROTOCOL_ERROR on the stream", [(":method", "GET"), (":scheme", "http")]),
        malformed("§8.3.1 an empty :path: PROTOCOL_ERROR on the stream", [(":method", "GET"), (":scheme", "http"), (":path", "")]),
        malformed("§8.3.1 a Host that differs from :authority: PROTOCOL_ERROR on the stream", F.get(extra: [("host", "elsewhere")])),
        HTTP2RawCase(name: "§8.3.1 Host without :authority: answered",
                     rounds: [F.headers(1, [(":method", "GET"), (":scheme", "http"), (":path", "/"), ("host", "localhost")])],
                     expected: answered1 + ["PING ACK"]),
        // §8.4 Server push
        HTTP2RawCase(name: "§8.4 PUSH_PROMISE from a client: PROTOCOL_ERROR",
                     rounds: [slow1 + F.frame(.pushPromise, flags: F.endHeaders, stream: 1, F.uint32(2) + F.block(F.get()))],
                     expected: ["GOAWAY 1 PROTOCOL_ERROR", "closed"]),
    ]

    @Test("RFC 7540 §3.2.1: an Upgrade: h2c request's HTTP2-Settings are the client's settings: its window of 2 holds the response's body")
    func upgradeSettings() throws {
        let server = try MockServer(script: ResponseScript(json: Self.script))
        try server.start()
        defer { server.stop() }
        let client = try HTTP2RawClient(port: server.port)
        // SETTINGS_INITIAL_WINDOW_SIZE 2, as a SETTINGS payload in base64url.
        try client.send(Array("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAQAAAAC\r\n\r\n".utf8))
        #expect(try client.readResponseHead().first == "HTTP/1.1 101 Switching Protocols")
        let lines = try client.exchange([F.preface, Self.windowUpdate(1, 10)])
        #expect(lines == ["HEADERS 1 200", "DATA 1 2", "PING ACK", "DATA 1 1 END_STREAM", "PING ACK"])
    }

    @Test(arguments: cases)
    func frames(_ conformance: HTTP2RawCase) throws {
        let server = try MockServer(script: ResponseScript(json: Self.script))
        try server.start()
        defer { server.stop() }
        let client = try HTTP2RawClient(port: server.port)
        var rounds = conformance.rounds
        if conformance.prefaced { rounds[0] = F.preface + rounds[0] }
        let lines = try client.exchange(rounds)
        #expect(lines == conformance.expected)
    }
}
