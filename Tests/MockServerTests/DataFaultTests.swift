import Foundation
import MockServerResponses
import Testing
import TestSupport
import MockServer
import MockServerCore
import MockServerHTTP
import MockServerScript
import MockServerWebDAV

/// `«refuse-data»` and `{"delay-data": …}`, through the bundled `data refused` and `data slow` sets,
/// seen by curl and Python's ftplib in passive and active mode.
@Suite("FTP data-connection faults", .offPool)
struct DataFaultTests {
    private func start(set: String) async throws -> MockServer {
        let server = try MockServer(script: BundledResponses.script(named: "ftp"), set: set)
        try await server.start()
        return server
    }

    private func ftplib(_ server: MockServer, passive: Bool, timeout: Double = 20) throws -> Tools.Result {
        try Tools.python("""
            import ftplib, sys
            f = ftplib.FTP()
            f.connect("127.0.0.1", \(server.port), timeout=\(timeout))
            f.login("anonymous", "x")
            f.set_pasv(\(passive ? "True" : "False"))
            try:
                got = bytearray()
                f.retrbinary("RETR file.txt", got.extend)
                print("got", got.decode().strip())
            except Exception as error:
                print(type(error).__name__, error)
            """)
    }

    /// curl sends `RETR` while its data connection is still being made, so on a loaded machine it
    /// may read the 425 before it notices the refusal (exit 19 instead of 7); ftplib connects
    /// before it sends `RETR`, so its refusal is what shows the port closed.
    @Test("refused, passive: the announced port is closed, curl cannot connect (7, or 19 on the 425), ftplib is refused", .enabled(if: Tools.hasCurl && Tools.hasPython))
    func refusedPassive() async throws {
        let server = try await start(set: "data refused")
        defer { server.stop() }
        let curl = try Tools.curl(["ftp://127.0.0.1:\(server.port)/file.txt"])
        #expect(curl.status == 7 || curl.status == 19, "\(curl.stderr)")
        #expect(curl.stderr.contains(curl.status == 7 ? "onnect" : "RETR response: 425"), "\(curl.stderr)")
        let python = try ftplib(server, passive: true)
        #expect(python.stdout.hasPrefix("ConnectionRefusedError"), "\(python.stdout)\(python.stderr)")
        #expect(!server.transcript.entries.contains { $0.channel == .data })
    }

    @Test("refused, active: the transfer answers 425 instead of 150; ftplib raises it, curl cannot retrieve (19)", .enabled(if: Tools.hasCurl && Tools.hasPython))
    func refusedActive() async throws {
        let server = try await start(set: "data refused")
        defer { server.stop() }
        let python = try ftplib(server, passive: false)
        #expect(python.stdout == "error_temp 425 Can't open data connection.\n", "\(python.stdout)\(python.stderr)")
        let curl = try Tools.curl(["-P", "127.0.0.1", "ftp://127.0.0.1:\(server.port)/file.txt"])
        #expect(curl.status == 19, "\(curl.stderr)")
        #expect(!server.transcript.entries.contains { $0.channel == .data })
    }

    @Test("slow: data starts 2 s after 150, so curl --max-time 1 exits 28 and ftplib with a 0.5 s timeout gives up",
          .enabled(if: Tools.hasCurl && Tools.hasPython))
    func slowTimesOut() async throws {
        let server = try await start(set: "data slow")
        defer { server.stop() }
        let curl = try Tools.curl(maxTime: 1, ["ftp://127.0.0.1:\(server.port)/file.txt"])
        #expect(curl.status == 28, "\(curl.stderr)")
        let python = try ftplib(server, passive: true, timeout: 0.5)
        #expect(python.stdout.hasPrefix("TimeoutError"), "\(python.stdout)\(python.stderr)")
    }

    @Test("a delay the client waits out: the file arrives whole, no sooner than the delay, in both modes", .enabled(if: Tools.hasPython),
          arguments: [true, false])
    func delayWaitedOut(passive: Bool) async throws {
        let script = try ResponseScript(json: """
            {"scheme": "ftp", "data": "late bytes\\n", "responses": {
                "initial": {"pattern": "«initial»", "commands": ["220 ready\\r\\n"]},
                "user": {"pattern": "^USER", "commands": ["331 ok\\r\\n"]},
                "pass": {"pattern": "^PASS", "commands": ["230 ok\\r\\n"]},
                "type": {"pattern": "^TYPE", "commands": ["200 ok\\r\\n"]},
                "pasv": {"pattern": "^PASV", "commands": ["«passive»", "227 Entering Passive Mode ($pasv).\\r\\n"]},
                "port": {"pattern": "^PORT (.+)", "commands": [{"active": "$1"}, "200 ok\\r\\n"]},
                "retr": {"pattern": "^RETR", "commands": ["150 here it comes\\r\\n", {"delay-data": 0.3}, "«download»", "226 done\\r\\n"]}
            }}
            """)
        let server = try MockServer(script: script)
        try await server.start()
        defer { server.stop() }
        let clock = ContinuousClock()
        let started = clock.now
        let python = try ftplib(server, passive: passive)
        #expect(python.stdout == "got late bytes\n", "\(python.stdout)\(python.stderr)")
        #expect(clock.now - started >= .milliseconds(300))
    }
}
