import Foundation
import MockServerHTTP2
import Testing
import TestSupport

/// Another implementation reads what this one writes, and the other way round: Python's `hpack` and
/// `hyperframe` (the codecs of the `h2` package). Skipped where python3 lacks them (`pip install
/// hpack hyperframe`; CI installs them).
@Suite("HTTP/2 codecs against Python's hpack and hyperframe", .offPool)
struct PythonCrossCheckTests {
    static let pythonHasCodecs: Bool = Tools.hasPython && (try? Tools.python("import hpack, hyperframe"))?.status == 0

    /// Decodes `blocks` (hex) with one hpack Decoder and encodes `lists` with one hpack Encoder;
    /// parses `frames` (hex) with hyperframe and writes frames of its own. Answers JSON.
    static let script = #"""
    import json, sys
    import hpack
    from hyperframe.frame import (Frame, SettingsFrame, HeadersFrame, ContinuationFrame, DataFrame, PingFrame,
                                  GoAwayFrame, RstStreamFrame, WindowUpdateFrame, PriorityFrame)
    job = json.loads(sys.stdin.read())
    decoder = hpack.Decoder()
    decoded = [[[n.hex(), v.hex()] for n, v in decoder.decode(bytes.fromhex(b), raw=True)] for b in job["blocks"]]
    encoder = hpack.Encoder()
    encoded = [encoder.encode([(bytes.fromhex(n), bytes.fromhex(v)) for n, v in l]).hex() for l in job["lists"]]
    data = bytes.fromhex(job["frames"])
    parsed = []
    while data:
        frame, length = Frame.parse_frame_header(memoryview(data[:9]))
        frame.parse_body(memoryview(data[9:9 + length]))
        parsed.append([type(frame).__name__, frame.stream_id, sorted(frame.flags)])
        data = data[9 + length:]
    theirs = b"".join(f.serialize() for f in [
        SettingsFrame(0, settings={SettingsFrame.MAX_CONCURRENT_STREAMS: 100, SettingsFrame.INITIAL_WINDOW_SIZE: 1 << 20}),
        SettingsFrame(0, flags=["ACK"]),
        HeadersFrame(3, data=b"\x82\x86", flags=["PADDED", "PRIORITY"], pad_length=2, depends_on=1, stream_weight=20, exclusive=True),
        ContinuationFrame(3, data=b"\x84", flags=["END_HEADERS"]),
        DataFrame(3, data=b"body", flags=["END_STREAM", "PADDED"], pad_length=4),
        PingFrame(0, opaque_data=b"12345678"),
        GoAwayFrame(0, last_stream_id=3, error_code=11, additional_data=b"calm"),
        RstStreamFrame(5, error_code=8),
        WindowUpdateFrame(0, window_increment=1000),
        PriorityFrame(7, depends_on=3, stream_weight=255),
    ])
    print(json.dumps({"decoded": decoded, "encoded": encoded, "parsed": parsed, "theirs": theirs.hex()}))
    """#

    static func hexString(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static let lists: [[HPACKHeader]] = [
        fields([":method": "GET", ":scheme": "https", ":path": "/package.Service/Method", ":authority": "localhost:8443", "te": "trailers"]),
        fields([":method": "POST", ":scheme": "https", ":path": "/package.Service/Method", ":authority": "localhost:8443",
                "content-type": "application/grpc", "grpc-timeout": "1S", "user-agent": "grpc-python/1.60"]),
        [HPACKHeader("authorization", "Bearer secret", sensitive: true), HPACKHeader(name: Array("x-bytes".utf8), value: [0x80, 0xFF, 0x09])],
        [HPACKHeader("x-long", String(repeating: "0123456789", count: 500))],
        fields([":status": "200", "content-type": "application/grpc", "grpc-status": "0", "grpc-message": ""]),
    ]

    @Test("hpack decodes this encoder's blocks to the same lists, and this decoder decodes hpack's", .enabled(if: pythonHasCodecs, "needs python3 with hpack and hyperframe"))
    func hpackBothWays() throws {
        var encoder = HPACKEncoder()
        var blocks: [String] = []
        for list in Self.lists {
            var block: [UInt8] = []
            encoder.encode(list, into: &block)
            blocks.append(Self.hexString(block))
        }
        let answer = try Self.run(["blocks": blocks, "lists": Self.lists.map { $0.map { [Self.hexString($0.name), Self.hexString($0.value)] } }, "frames": ""])
        let decoded = try #require(answer["decoded"] as? [[[String]]])
        #expect(decoded == Self.lists.map { $0.map { [Self.hexString($0.name), Self.hexString($0.value)] } })
        let encoded = try #require(answer["encoded"] as? [String])
        var decoder = HPACKDecoder()
        for (block, list) in zip(encoded, Self.lists) {
            let headers = try decoder.decode(hex(block))
            #expect(headers.map { [$0.name, $0.value] } == list.map { [$0.name, $0.value] })
        }
    }

    @Test("hyperframe parses this writer's frames, and this reader reads hyperframe's", .enabled(if: pythonHasCodecs, "needs python3 with hpack and hyperframe"))
    func framesBothWays() throws {
        let ours = [
            HTTP2Frame(streamID: 0, .settings([HTTP2Setting(.maxConcurrentStreams, 100)], ack: false)),
            HTTP2Frame(streamID: 1, .headers(block: hex("82"), endStream: false, endHeaders: false, priority: HTTP2Priority(exclusive: true, dependency: 0, weight: 9), padding: 3)),
            HTTP2Frame(streamID: 1, .continuation(block: hex("84"), endHeaders: true)),
            HTTP2Frame(streamID: 1, .data(Array("body".utf8), endStream: true, padding: 1)),
            HTTP2Frame(streamID: 0, .ping(42, ack: true)),
            HTTP2Frame(streamID: 0, .goAway(lastStreamID: 1, code: .noError, debugData: [])),
            HTTP2Frame(streamID: 1, .rstStream(.cancel)),
            HTTP2Frame(streamID: 1, .windowUpdate(increment: 5)),
            HTTP2Frame(streamID: 3, .priority(HTTP2Priority(dependency: 1, weight: 0))),
        ]
        var bytes: [UInt8] = []
        for frame in ours { HTTP2FrameWriter.write(frame, into: &bytes) }
        let answer = try Self.run(["blocks": [String](), "lists": [[[String]]](), "frames": Self.hexString(bytes)])
        let parsed = try #require(answer["parsed"] as? [[Any]])
        #expect(parsed.map { "\($0[0]) \($0[1]) \(($0[2] as? [String]) ?? [])" } == [
            "SettingsFrame 0 []", "HeadersFrame 1 [\"PADDED\", \"PRIORITY\"]", "ContinuationFrame 1 [\"END_HEADERS\"]",
            "DataFrame 1 [\"END_STREAM\", \"PADDED\"]", "PingFrame 0 [\"ACK\"]", "GoAwayFrame 0 []", "RstStreamFrame 1 []",
            "WindowUpdateFrame 1 []", "PriorityFrame 3 []",
        ])
        var reader = HTTP2FrameReader(expectingPreface: false)
        reader.append(hex(try #require(answer["theirs"] as? String)))
        var theirs: [HTTP2Frame] = []
        while let frame = try reader.nextFrame() { theirs.append(frame) }
        #expect(theirs == [
            HTTP2Frame(streamID: 0, .settings([HTTP2Setting(.maxConcurrentStreams, 100), HTTP2Setting(.initialWindowSize, 1 << 20)], ack: false)),
            HTTP2Frame(streamID: 0, .settings([], ack: true)),
            HTTP2Frame(streamID: 3, .headers(block: hex("8286"), endStream: false, endHeaders: false, priority: HTTP2Priority(exclusive: true, dependency: 1, weight: 20), padding: 2)),
            HTTP2Frame(streamID: 3, .continuation(block: hex("84"), endHeaders: true)),
            HTTP2Frame(streamID: 3, .data(Array("body".utf8), endStream: true, padding: 4)),
            HTTP2Frame(streamID: 0, .ping(0x3132_3334_3536_3738, ack: false)),
            HTTP2Frame(streamID: 0, .goAway(lastStreamID: 3, code: .enhanceYourCalm, debugData: Array("calm".utf8))),
            HTTP2Frame(streamID: 5, .rstStream(.cancel)),
            HTTP2Frame(streamID: 0, .windowUpdate(increment: 1000)),
            HTTP2Frame(streamID: 7, .priority(HTTP2Priority(exclusive: false, dependency: 3, weight: 255))),
        ])
    }

    /// Runs the script on `job` (as JSON on its standard input) and parses its answer.
    static func run(_ job: [String: Any]) throws -> [String: Any] {
        let input = try Tools.temporaryDirectory().appendingPathComponent("job.json")
        try JSONSerialization.data(withJSONObject: job).write(to: input)
        let result = try Tools.run("sh", ["-c", "python3 -c \"$0\" < \"$1\"", script, input.path])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }
}
