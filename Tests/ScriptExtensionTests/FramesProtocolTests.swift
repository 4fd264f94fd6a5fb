import Foundation
import MockServer
import Testing
import TestSupport

// A binary protocol of its own framing, added through the extension point alone: a FRAMES
// connection carries frames of a 2-byte big-endian length and that many bytes of payload, in both
// directions. Its framer cuts the input into payloads, the script's patterns answer each one, and
// `{"reply": "text"}` sends the rendered text as one frame. No other target knows any of it.

/// Cuts a byte stream into the payloads of length-prefixed frames: a pure value, bytes in, payloads out.
struct LengthPrefixedFramer: InputFramer {
    /// The longest payload accepted.
    let maximumLength: Int
    private var buffer: [UInt8] = []

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    mutating func next() throws(FramingError) -> [UInt8]? {
        guard buffer.count >= 2 else { return nil }
        let length = Int(buffer[0]) << 8 | Int(buffer[1])
        guard length <= maximumLength else { throw .tooLong(part: "frame", limit: maximumLength) }
        guard buffer.count >= 2 + length else { return nil }
        let payload = Array(buffer[2..<(2 + length)])
        buffer.removeFirst(2 + length)
        return payload
    }

    mutating func finish() throws(FramingError) -> [UInt8]? {
        if let payload = try next() { return payload }
        guard buffer.isEmpty else { throw .malformed(unit: "frame", reason: "the input ended \(buffer.count) bytes into a frame") }
        return nil
    }

    var bufferedCount: Int { buffer.count }
}

/// `{"reply": "text"}`: sends the rendered text as one frame.
struct ReplyFrameCommand: ProtocolCommand {
    let text: ResponseTemplate

    func run(_ match: ScriptRun.Match, in reply: ScriptRun) -> ScriptRun.Outcome<Never> {
        let payload = reply.render(text, match: match)
        return .continue([.send([UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload)])
    }
}

struct FramesProtocol: ScriptProtocol {
    let name = "FRAMES"
    let schemes: Set<String> = ["frames", "framess"]
    let keys = ["reply"]

    func connections(framing: Framing) -> ScriptConnections {
        .framed { LengthPrefixedFramer(maximumLength: min($0, 0xFFFF)) }
    }

    func urlScheme(for scheme: String, implicitTLS: Bool) -> String {
        implicitTLS ? "framess" : scheme
    }

    func command(key: String, object: ScriptDecoding.CommandObject, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        .command(ReplyFrameCommand(text: ResponseTemplate(try decoding.string(object.command.value, path: "\(decoding.path).\(key)"))))
    }
}

@Suite("A protocol with its own framing, through the extension point", .offPool)
struct FramesProtocolTests {
    static let script = """
        {
          "scheme": "frames",
          "responses": {
            "hello": { "pattern": "«initial»", "commands": [{"reply": "hello from $server"}] },
            "echo":  { "pattern": "^ECHO (.*)$", "commands": [{"reply": "$1"}] },
            "size":  { "pattern": "^SIZE ", "commands": [{"reply": "got a frame of \\"$0\\""}] },
            "bye":   { "pattern": "^BYE$", "commands": [{"reply": "bye"}, "«close»"] }
          }
        }
        """

    @Test("the framer cuts payloads however the bytes are split into reads", arguments: [1, 2, 3, 7, 64])
    func framerIsPure(chunkSize: Int) throws {
        let frames: [[UInt8]] = [Array("ECHO a".utf8), [], Array("line\nbreak\r\n".utf8), Array(repeating: 0xFF, count: 300)]
        let stream = frames.flatMap { [UInt8($0.count >> 8), UInt8($0.count & 0xFF)] + $0 }
        var framer = LengthPrefixedFramer(maximumLength: 1024)
        var payloads: [[UInt8]] = []
        for start in stride(from: 0, to: stream.count, by: chunkSize) {
            stream[start..<min(start + chunkSize, stream.count)].withUnsafeBytes { framer.append($0) }
            while let payload = try framer.next() { payloads.append(payload) }
        }
        #expect(payloads == frames)
        #expect(try framer.finish() == nil)
        #expect(framer.bufferedCount == 0)
    }

    @Test("a frame cut short at the end, or longer than the limit, is an error that says so")
    func framerRefuses() throws {
        var short = LengthPrefixedFramer(maximumLength: 1024)
        ([0, 5, 65, 66] as [UInt8]).withUnsafeBytes { short.append($0) }
        #expect(try short.next() == nil)
        #expect(throws: FramingError.malformed(unit: "frame", reason: "the input ended 4 bytes into a frame")) { try short.finish() }
        var long = LengthPrefixedFramer(maximumLength: 16)
        ([0, 17] as [UInt8]).withUnsafeBytes { long.append($0) }
        #expect(throws: FramingError.tooLong(part: "frame", limit: 16)) { try long.next() }
    }

    @Test("a server of a FRAMES script answers Python's socket client frame by frame, on no port but its own")
    func servesARealClient() throws {
        let script = try ResponseScript(json: Self.script, file: "frames.json", vocabulary: .standard.adding(FramesProtocol()))
        let server = try MockServer(script: script)
        try server.start()
        defer { server.stop() }
        // FTP's shared data port is FTP's alone.
        #expect(server.dataPort == 0)
        #expect(server.url(for: "/").absoluteString == "frames://127.0.0.1:\(server.port)/")
        let result = try Tools.python("""
            import socket, struct
            def frame(text):
                data = text.encode()
                return struct.pack(">H", len(data)) + data
            with socket.create_connection(("127.0.0.1", \(server.port)), timeout=10) as s:
                f = s.makefile("rwb")
                def read():
                    (n,) = struct.unpack(">H", f.read(2))
                    return f.read(n).decode()
                print(read())
                # Two frames in one write, then one frame split over three writes.
                f.write(frame("ECHO first") + frame("ECHO line one\\nline two")); f.flush()
                print(read()); print(repr(read()))
                whole = frame("SIZE 12345")
                for part in [whole[:1], whole[1:5], whole[5:]]:
                    f.write(part); f.flush()
                print(read())
                f.write(frame("BYE")); f.flush()
                print(read())
                print(repr(f.read()))
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n") == ["hello from MockServer", "first", "'line one\\nline two'", "got a frame of \"SIZE 12345\"", "bye", "b''"],
                "\(result.stdout)\(result.stderr)")
    }

    @Test("a frame cut short when the client stops sending closes the connection with the framer's reason")
    func shortFrameCloses() async throws {
        let script = try ResponseScript(json: Self.script, vocabulary: .standard.adding(FramesProtocol()))
        let server = try MockServer(script: script)
        try await server.start()
        defer { server.stop() }
        let result = try Tools.python("""
            import socket
            with socket.create_connection(("127.0.0.1", \(server.port)), timeout=10) as s:
                s.recv(100)
                s.sendall(b"\\x00\\x09ECHO")
                s.shutdown(socket.SHUT_WR)
                print(repr(s.recv(100)))
            """)
        #expect(result.stdout == "b''\n", "\(result.stdout)\(result.stderr)")
        let closed = try await server.transcript.wait { entry in
            if case .closed = entry.event { true } else { false }
        }
        #expect(closed.event == .closed(.malformedInput("the input ended 6 bytes into a frame")))
    }

    @Test("without the protocol its scheme is claimed by none, and the error lists the schemes there are")
    func unclaimedScheme() throws {
        do {
            _ = try ResponseScript(json: Self.script, file: "frames.json")
            Issue.record("loaded a scheme no protocol claims")
        } catch {
            #expect(error.description.hasPrefix("frames.json:2:13: scheme: no protocol claims the scheme \"frames\"; the known schemes are dav, davs, ftp, ftps, http, https, "),
                    "\(error)")
        }
    }
}
