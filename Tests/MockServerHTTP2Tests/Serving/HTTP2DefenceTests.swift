import Foundation
import Testing
import TestSupport
import MockServer

private typealias F = HTTP2RawClient

/// HTTP/2's flood defences against a real server, with raw frames (``HTTP2RawClient``): for each,
/// the code sent (GOAWAY ENHANCE_YOUR_CALM, then the close), the budget (just under: served; just
/// over: GOAWAY), the switch that turns it off (the same flood served to the end), and the reason
/// the transcript gives. Budgets are small here; the defaults are checked once, where cheap.
@Suite("HTTP/2 flood defences", .offPool)
struct HTTP2DefenceTests {
    private static let script = """
        {"scheme": "http", "responses": {
            "slow": {"pattern": "^[A-Z]+ /slow ", "commands": [{"pause": 5}, {"response": {"body": "late\\n"}}]},
            "big": {"pattern": "^[A-Z]+ /big ", "commands": [{"response": {"body": "\(String(repeating: "x", count: 1_000))"}}]},
            "hello": {"pattern": "^[A-Z]+ /", "commands": [{"response": {"body": "hi\\n"}}]}}}
        """

    private static func server(_ defences: MockServer.HTTP2ServerSettings.Defences) throws -> MockServer {
        var configuration = MockServer.Configuration()
        configuration.settings[MockServer.HTTP2ServerSettings.self, default: .init()].defences = defences
        let server = try MockServer(script: ResponseScript(json: script), configuration: configuration)
        try server.start()
        return server
    }

    private static func reset(_ stream: UInt32) -> [UInt8] {
        F.frame(.rstStream, stream: stream, F.uint32(8))
    }

    /// `count` streams asked for `/slow` and reset at once, from stream `first` on.
    private static func rapidReset(_ count: Int, from first: UInt32 = 1, path: String = "/slow") -> [UInt8] {
        (0..<UInt32(count)).flatMap { F.headers(first + 2 * $0, F.get(path)) + reset(first + 2 * $0) }
    }

    private static let priority = F.frame(.priority, stream: 3, F.uint32(0) + [15])

    /// Waits for the connection's close in the transcript and returns its reason.
    private static func closeReason(of server: MockServer) async throws -> Transcript.CloseReason? {
        let entry = try await server.transcript.wait(for: "the connection's close", timeout: .seconds(10)) { entry in
            if case .closed = entry.event { return true }
            return false
        }
        guard case .closed(let reason) = entry.event else { return nil }
        return reason
    }

    // MARK: Resets

    @Test("resets: the budget's worth of streams opened and reset is served; one more is GOAWAY ENHANCE_YOUR_CALM naming the last stream, and the transcript says why")
    func resetBudget() async throws {
        // An hour's refill: no token comes back while the test runs, however slow the machine.
        var defences = MockServer.HTTP2ServerSettings.Defences(refillTime: .seconds(3_600))
        defences.resetBudget = 5
        let server = try Self.server(defences)
        defer { server.stop() }
        let client = try HTTP2RawClient(port: server.port)
        let lines = try client.exchange([F.preface + Self.rapidReset(5), F.headers(11, F.get()), Self.rapidReset(1, from: 13)])
        #expect(lines == ["PING ACK", "HEADERS 11 200", "DATA 11 3 END_STREAM", "PING ACK", "GOAWAY 13 ENHANCE_YOUR_CALM", "closed"])
        let reason = try await Self.closeReason(of: server)
        #expect(reason == .defence("streams reset faster than the reset budget allows (5 at once, coming back over 3600.0 seconds)"))
        #expect(reason?.description.hasPrefix("closed by a defence: streams reset faster") == true)
    }

    @Test("resets, the default budget: 1,000 streams answered at once and reset are served; 500 more, and the connection gets GOAWAY (the budget comes back at about 33 a second)")
    func resetDefault() throws {
        let server = try Self.server(MockServer.HTTP2ServerSettings.Defences())
        defer { server.stop() }
        let client = try HTTP2RawClient(port: server.port)
        let lines = try client.exchange([F.preface + Self.rapidReset(1_000, path: "/"), Self.rapidReset(500, from: 2_001, path: "/")])
        let firstRound = try #require(lines.firstIndex(of: "PING ACK"))
        #expect(lines[..<firstRound].filter { $0.hasPrefix("DATA") }.count == 1_000)
        #expect(lines.suffix(2).first?.hasSuffix(" ENHANCE_YOUR_CALM") == true && lines.last == "closed", "\(lines.suffix(3))")
        #expect(lines.filter { $0 == "PING ACK" }.count == 1)
    }

    @Test("resets off: 3,000 streams opened and reset, all served to the end")
    func resetOff() throws {
        var defences = MockServer.HTTP2ServerSettings.Defences()
        defences.resetBudget = nil
        let server = try Self.server(defences)
        defer { server.stop() }
        let client = try HTTP2RawClient(port: server.port)
        let lines = try client.exchange([F.preface + Self.rapidReset(3_000), F.headers(6_001, F.get())])
        #expect(lines == ["PING ACK", "HEADERS 6001 200", "DATA 6001 3 END_STREAM", "PING ACK"])
    }

    // MARK: Frames that carry nothing

    /// One kind of frame that carries nothing, against a budget of 20. The first round is the
    /// preface (2 spent: the client's SETTINGS and its acknowledgement), `setup` and the round's
    /// PING (1 more); a request gives 1 back. The second round is `prefix`, the frames, `suffix`
    /// and its PING: `allowed` frames take the budget to its last token.
    struct EmptyKind: Sendable, CustomTestStringConvertible {
        let name: String
        var setup: [UInt8] = []
        /// The first round's lines before its PING ACK.
        var setupLines: [String] = []
        var prefix: [UInt8] = []
        let frame: [UInt8]
        var suffix: [UInt8] = []
        let allowed: Int
        /// The second round's lines before the frames' own (`echo`, one a frame) and its PING ACK.
        var answered: [String] = []
        var echo: String?
        /// The GOAWAY's last stream.
        var lastStream = 0
        var testDescription: String { name }
    }

    private static let post = F.headers(1, [(":method", "POST"), (":scheme", "http"), (":path", "/"), (":authority", "localhost")], endStream: false)

    static let kinds: [EmptyKind] = [
        EmptyKind(name: "PRIORITY", frame: priority, allowed: 16),
        EmptyKind(name: "PING", frame: F.frame(.ping, Array("pingpong".utf8)), allowed: 16, echo: "PING ACK pingpong"),
        EmptyKind(name: "SETTINGS", frame: F.settings(), allowed: 16, echo: "SETTINGS ACK"),
        EmptyKind(name: "a frame of an unknown type", frame: F.frame(0x20, stream: 0), allowed: 16),
        EmptyKind(name: "empty DATA (CVE-2019-9518)", setup: post, frame: F.frame(.data, stream: 1), allowed: 17, lastStream: 1),
        EmptyKind(name: "WINDOW_UPDATE on a closed stream", setup: F.headers(1, F.get()), setupLines: ["HEADERS 1 200", "DATA 1 3 END_STREAM"],
                  frame: F.frame(.windowUpdate, stream: 1, F.uint32(1)), allowed: 17, lastStream: 1),
        EmptyKind(name: "empty CONTINUATION", prefix: F.frame(.headers, flags: F.endStream, stream: 1, F.block(F.get())), frame: F.frame(.continuation, stream: 1),
                  suffix: F.frame(.continuation, flags: F.endHeaders, stream: 1), allowed: 17, answered: ["HEADERS 1 200", "DATA 1 3 END_STREAM"], lastStream: 1),
    ]

    @Test("frames that carry nothing: a budget of 20 takes them to the last token, one more is GOAWAY ENHANCE_YOUR_CALM", arguments: kinds)
    func emptyFrames(kind: EmptyKind) async throws {
        var defences = MockServer.HTTP2ServerSettings.Defences(refillTime: .seconds(3_600))
        defences.emptyFrameBudget = 20
        for (count, over) in [(kind.allowed, false), (kind.allowed + 1, true)] {
            let server = try Self.server(defences)
            defer { server.stop() }
            let client = try HTTP2RawClient(port: server.port)
            let flood = kind.prefix + Array([[UInt8]](repeating: kind.frame, count: count).joined()) + kind.suffix
            let lines = try client.exchange([F.preface + kind.setup, flood])
            let setup = kind.setupLines + ["PING ACK"]
            if over {
                #expect(lines.starts(with: setup) && lines.suffix(2) == ["GOAWAY \(kind.lastStream) ENHANCE_YOUR_CALM", "closed"], "\(kind.name): \(lines)")
                let reason = try await Self.closeReason(of: server)
                #expect(reason?.description.hasPrefix("closed by a defence: frames that carry nothing faster than the empty-frame budget allows (20 at once") == true,
                        "\(String(describing: reason))")
            } else {
                let echoes = kind.echo.map { Array(repeating: $0, count: count) } ?? []
                #expect(lines == setup + kind.answered + echoes + ["PING ACK"], "\(kind.name)")
            }
        }
    }

    @Test("frames that carry nothing, the default budget: 10,000 less the preface's PRIORITY frames are served; 3,000 more, and GOAWAY (the budget comes back at about 333 a second)")
    func emptyDefault() throws {
        let server = try Self.server(MockServer.HTTP2ServerSettings.Defences())
        defer { server.stop() }
        let client = try HTTP2RawClient(port: server.port)
        let flood = Array([[UInt8]](repeating: Self.priority, count: 9_997).joined())
        let more = Array([[UInt8]](repeating: Self.priority, count: 3_000).joined())
        let lines = try client.exchange([F.preface + flood, F.headers(1, F.get()), more])
        #expect(lines == ["PING ACK", "HEADERS 1 200", "DATA 1 3 END_STREAM", "PING ACK", "GOAWAY 1 ENHANCE_YOUR_CALM", "closed"])
    }

    @Test("frames that carry nothing off: 50,000 PRIORITY frames and 50,000 empty DATA frames, served to the end")
    func emptyOff() throws {
        var defences = MockServer.HTTP2ServerSettings.Defences()
        defences.emptyFrameBudget = nil
        let server = try Self.server(defences)
        defer { server.stop() }
        let client = try HTTP2RawClient(port: server.port)
        let post = F.headers(1, [(":method", "POST"), (":scheme", "http"), (":path", "/"), (":authority", "localhost")], endStream: false)
        let priorities = Array([[UInt8]](repeating: Self.priority, count: 50_000).joined())
        let empties = Array([[UInt8]](repeating: F.frame(.data, stream: 1), count: 50_000).joined())
        let lines = try client.exchange([F.preface + priorities, post + empties + F.frame(.data, flags: F.endStream, stream: 1)])
        #expect(lines == ["PING ACK", "HEADERS 1 200", "DATA 1 3 END_STREAM", "PING ACK"])
    }

    // MARK: Zero windows

    /// The preface with the client's initial window at 0: every response body waits for a WINDOW_UPDATE.
    private static let zeroWindowPreface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + F.settings([(0x4, 0)]) + F.settings(flags: F.ack)

    @Test("a zero window: the body waits, and after the timeout the connection gets GOAWAY ENHANCE_YOUR_CALM; the transcript says why")
    func zeroWindowExpires() async throws {
        var defences = MockServer.HTTP2ServerSettings.Defences()
        defences.zeroWindowTimeout = .milliseconds(300)
        let server = try Self.server(defences)
        defer { server.stop() }
        let client = try HTTP2RawClient(port: server.port)
        let start = ContinuousClock.now
        let lines = try client.exchange([Self.zeroWindowPreface + F.headers(1, F.get("/big"))])
        #expect(lines == ["HEADERS 1 200", "PING ACK"])
        // No round now: the next frame is the GOAWAY.
        var next = try client.readLine()
        while next == nil || next == "SETTINGS ACK" { next = try client.readLine() }
        #expect(next == "GOAWAY 1 ENHANCE_YOUR_CALM")
        #expect(ContinuousClock.now - start >= .milliseconds(300))
        #expect(try client.readLine() == "closed")
        let reason = try await Self.closeReason(of: server)
        #expect(reason?.description.hasPrefix("closed by a defence: response bytes waited ") == true, "\(String(describing: reason))")
    }

    @Test("a zero window opened before the timeout: the body goes, and the connection stays")
    func zeroWindowOpened() throws {
        var defences = MockServer.HTTP2ServerSettings.Defences()
        defences.zeroWindowTimeout = .seconds(5)
        let server = try Self.server(defences)
        defer { server.stop() }
        let client = try HTTP2RawClient(port: server.port)
        let lines = try client.exchange([Self.zeroWindowPreface + F.headers(1, F.get("/big")), F.frame(.windowUpdate, stream: 1, F.uint32(1_000)), F.headers(3, F.get())])
        #expect(lines == ["HEADERS 1 200", "PING ACK", "DATA 1 1000 END_STREAM", "PING ACK", "HEADERS 3 200", "PING ACK"])
    }

    @Test("zero window off: the body waits for ever (here 1 s, three times a timeout of 300 ms), then goes when the window opens")
    func zeroWindowOff() async throws {
        var defences = MockServer.HTTP2ServerSettings.Defences()
        defences.zeroWindowTimeout = nil
        let server = try Self.server(defences)
        defer { server.stop() }
        let client = try HTTP2RawClient(port: server.port)
        #expect(try client.exchange([Self.zeroWindowPreface + F.headers(1, F.get("/big"))]) == ["HEADERS 1 200", "PING ACK"])
        // Waiting for nothing to happen: a second, then the connection is still there.
        try await Task.sleep(for: .seconds(1))
        #expect(try client.exchange([F.frame(.windowUpdate, stream: 1, F.uint32(1_000))]) == ["DATA 1 1000 END_STREAM", "PING ACK"])
    }

    // MARK: Configuration

    @Test("mockserver --http2-reset-budget, --http2-empty-frame-budget, --http2-zero-window-timeout: the budgets and the switch off; bad values refused naming the flag")
    func commandLine() throws {
        let folder = try Tools.temporaryDirectory()
        let file = folder.appendingPathComponent("api.json")
        try Data(#"{"endpoints": [{"api": "get /a", "response": {"body": "a"}}]}"#.utf8).write(to: file)
        let command = try RunningCommand(["--http2-reset-budget", "3", "--http2-empty-frame-budget", "off", "--http2-zero-window-timeout", "off", file.path])
        defer { _ = command.terminate() }
        let port = try #require(command.firstLine.split(separator: ":").last.flatMap { UInt16($0) }, "first line: \(command.firstLine)")
        let client = try HTTP2RawClient(port: port)
        let priorities = Array([[UInt8]](repeating: Self.priority, count: 20_000).joined())
        let lines = try client.exchange([F.preface + priorities + Self.rapidReset(3, path: "/a"), Self.rapidReset(1, from: 7, path: "/a")])
        #expect(lines.filter { $0.hasPrefix("DATA") }.count == 4)
        #expect(lines.suffix(2) == ["GOAWAY 7 ENHANCE_YOUR_CALM", "closed"], "\(lines)")
        for (arguments, message) in [
            (["--http2-reset-budget", "0"], "--http2-reset-budget takes a whole number of 1 or more, or off, not \"0\""),
            (["--http2-empty-frame-budget", "many"], "--http2-empty-frame-budget takes a whole number of 1 or more, or off, not \"many\""),
            (["--http2-zero-window-timeout", "0"], "--http2-zero-window-timeout takes seconds above 0, at most 86400, or off, not \"0\""),
        ] {
            let usage = try Tools.run(Tools.mockserver.path, arguments + [file.path])
            #expect(usage.status == 64)
            #expect(usage.stderr.contains(message), "\(usage.stderr)")
        }
        let help = try Tools.run(Tools.mockserver.path, ["--help"])
        for flag in ["--http2-reset-budget N|off", "--http2-empty-frame-budget N|off", "--http2-zero-window-timeout SECONDS|off"] {
            #expect(help.stdout.contains(flag), "\(flag)")
        }
    }

    @Test("a defence's limit out of range fails start(), naming it and its flag")
    func invalid() {
        for (defences, message) in [
            (MockServer.HTTP2ServerSettings.Defences(resetBudget: 0), "http2Defences.resetBudget (--http2-reset-budget) is 0: it takes 1 or more, or nil (off) to turn the defence off"),
            (MockServer.HTTP2ServerSettings.Defences(emptyFrameBudget: -1), "http2Defences.emptyFrameBudget (--http2-empty-frame-budget) is -1: it takes 1 or more, or nil (off) to turn the defence off"),
            (MockServer.HTTP2ServerSettings.Defences(refillTime: .zero), "http2Defences.refillTime is 0.0 seconds: it must be more than 0"),
            (MockServer.HTTP2ServerSettings.Defences(zeroWindowTimeout: .seconds(-1)), "http2Defences.zeroWindowTimeout (--http2-zero-window-timeout) is -1.0 seconds: it must be more than 0, or nil (off) to turn the defence off"),
        ] {
            var configuration = MockServer.Configuration()
            configuration.settings[MockServer.HTTP2ServerSettings.self, default: .init()].defences = defences
            #expect(throws: MockServerError.invalidHTTP2Setting(message)) {
                try HTTPMockServer(configuration: configuration).start()
            }
        }
    }
}
