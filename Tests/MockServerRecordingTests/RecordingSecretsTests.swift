import Foundation
import Testing
import TestSupport
import MockServer
import MockServerRecording

/// `mockserver record` hides secrets by default in everything it writes and prints (files, file
/// names, endpoints, the transcript file, `--verbose`), and its replay still answers the original
/// requests; checked by running the built binary against an upstream in this process, with curl.
@Suite("Recording: secrets masked by default", .offPool, .enabled(if: Tools.hasCurl))
struct RecordingSecretsTests {
    /// Every secret the requests and the upstream's answers carry; none may be written or printed.
    static let secrets = ["SECRETAUTH", "SECRETAPIKEY", "SECRETFRAGMENT", "SECRETQUERY", "SECRETPASSWORD", "SECRETCLIENT", "SECRETREFRESH",
                          "SECRETNESTED", "SECRETSIG", "SECRETPIN", "SECRETCOOKIE", "SECRETUPSTREAMTOKEN", "SECRETACCESS", "SECRETCSRF"]

    /// An upstream that answers every GET and POST with a cookie, a token header and a JSON access token.
    static func upstream() async throws -> HTTPMockServer {
        let upstream = HTTPMockServer()
        for method in ["GET", "POST"] {
            try upstream.stubRequest(method, matching: "^/").andReturn(200)
                .withHeaders(["Set-Cookie": "sid=SECRETCOOKIE", "X-Upstream-Token": "SECRETUPSTREAMTOKEN", "Content-Type": "application/json",
                              "X-Visible-Token": "VISIBLEVALUE"])
                .withBody(#"{"access_token": "SECRETACCESS", "user": "ann"}"#)
        }
        try await upstream.start()
        return upstream
    }

    /// The requests (path and curl arguments) and what each must be answered with on replay.
    static let requests: [(path: String, arguments: [String])] = [
        ("/items?token=SECRETQUERY&page=2", ["-H", "Authorization: Bearer SECRETAUTH", "-H", "X-Api-Key: SECRETAPIKEY",
                                             "-H", "X-My-Secret-Thing: SECRETFRAGMENT", "-H", "x-csrf-token: SECRETCSRF"]),
        ("/login", ["-H", "Content-Type: application/x-www-form-urlencoded", "--data", "user=ann&Password=SECRETPASSWORD&client_secret=SECRETCLIENT"]),
        ("/refresh", ["-H", "Content-Type: application/json",
                      "--data", #"{"user": "ann", "refresh_token": "SECRETREFRESH", "device": {"apikey": "SECRETNESTED"}}"#]),
        ("/signed?sig=SECRETSIG&v=1", []),
        ("/pin", ["-H", "Content-Type: application/x-www-form-urlencoded", "--data", "pin=SECRETPIN&n=1"]),
    ]

    /// curl's status and body for `path` on `port`.
    static func curl(_ port: UInt16, _ path: String, _ arguments: [String]) throws -> (Int, String) {
        let result = try Tools.curl(["-s", "-w", "\n%{http_code}"] + arguments + ["http://127.0.0.1:\(port)\(path)"])
        #expect(result.status == 0, "curl \(path): \(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// Every file name and every byte under `folder`.
    static func everything(in folder: URL) throws -> String {
        var text = ""
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            text += name + "\n" + String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self) + "\n"
        }
        return text
    }

    static func port(of command: RunningCommand) throws -> UInt16 {
        try #require(UInt16(command.firstLine.split(separator: ":").last ?? ""), "first line: \(command.firstLine)")
    }

    @Test("a mock-data folder: no secret in a file, a file name, the transcript file or --verbose; MASKED is there; the replay answers the original requests")
    func mockDataFolder() async throws {
        let upstream = try await Self.upstream()
        defer { upstream.stop() }
        let work = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = work.appendingPathComponent("Recorded"), transcript = work.appendingPathComponent("transcript.jsonl")
        let recorder = try RunningCommand(["record", "--upstream", "http://127.0.0.1:\(upstream.port)", "--mock-data", folder.path,
                                                            "--mask-query", "sig", "--mask-form-field", "pin", "--unmask-header", "X-Visible-Token",
                                                            "--transcript", transcript.path, "--verbose"])
        let port = try Self.port(of: recorder)
        let second = recorder.nextLine()
        var recorded: [(Int, String)] = []
        for (path, arguments) in Self.requests { recorded.append(try Self.curl(port, path, arguments)) }
        let (status, stderr) = recorder.terminate()
        #expect(status == 0)
        // The clients got the real values.
        #expect(recorded.allSatisfy { $0.0 == 200 && $0.1.contains("SECRETACCESS") }, "\(recorded)")
        // The upstream got them too.
        let received = RecordingForwardingTests.received(by: upstream).joined()
        #expect(received.contains("token=SECRETQUERY") && received.contains("SECRETPIN") && received.contains("Bearer SECRETAUTH"))

        let files = try Self.everything(in: folder)
        let written = files + String(decoding: try Data(contentsOf: transcript), as: UTF8.self) + stderr + second
        for secret in Self.secrets { #expect(!written.contains(secret), "\(secret) was written or printed") }
        for masked in ["Authorization: MASKED", "X-Api-Key: MASKED", "X-My-Secret-Thing: MASKED", "x-csrf-token: MASKED", "Set-Cookie: MASKED",
                       "X-Upstream-Token: MASKED", "token=MASKED", "sig=MASKED", "Password=MASKED", "client_secret=MASKED", "pin=MASKED"] {
            #expect(files.contains(masked) || written.contains(masked), "\(masked) is missing")
        }
        // The transcript file and --verbose each show the masks, not only the folder.
        for stream in [String(decoding: try Data(contentsOf: transcript), as: UTF8.self), stderr] {
            #expect(stream.contains("token=MASKED") && stream.contains("MASKED"), "\(stream.prefix(2000))")
        }
        #expect(files.contains(#""access_token":"MASKED""#) && written.contains("VISIBLEVALUE"), "an unmasked header is written as it came")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.contains("GET|-items?token=MASKED&page=2.http") && names.contains("GET|-signed?sig=MASKED&v=1.http"), "\(names)")
        #expect(names.contains(".mockserver-mask"), "the names beyond the standard ones are left for the replay: \(names)")

        let replay = try RunningCommand(["--mock-data", folder.path])
        defer { _ = replay.terminate() }
        let replayPort = try Self.port(of: replay)
        for (path, arguments) in Self.requests {
            let answer = try Self.curl(replayPort, path, arguments)
            #expect(answer.0 == 200 && answer.1.contains(#""access_token":"MASKED""#), "\(path): \(answer)")
        }
        // Another token is another request, answered by the same masked file.
        #expect(try Self.curl(replayPort, "/items?token=OTHER&page=2", []).0 == 200)
        #expect(try Self.curl(replayPort, "/items?page=2", []).0 == 404)
    }

    @Test("an endpoints file: no secret in it, the transcript file or --verbose; mockserver FILE answers the original requests")
    func endpointsFile() async throws {
        let upstream = try await Self.upstream()
        defer { upstream.stop() }
        let work = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.appendingPathComponent("recorded.json"), transcript = work.appendingPathComponent("transcript.jsonl")
        let recorder = try RunningCommand(["record", "--upstream", "http://127.0.0.1:\(upstream.port)", "--endpoints", file.path,
                                                            "--mask-query", "sig", "--mask-form-field", "pin", "--transcript", transcript.path, "--verbose"])
        let port = try Self.port(of: recorder)
        _ = recorder.nextLine()
        for (path, arguments) in Self.requests { #expect(try Self.curl(port, path, arguments).0 == 200) }
        let (status, stderr) = recorder.terminate()
        #expect(status == 0)
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        let written = text + String(decoding: try Data(contentsOf: transcript), as: UTF8.self) + stderr
        for secret in Self.secrets { #expect(!written.contains(secret), "\(secret) was written or printed") }
        for masked in [#""get /items?token=MASKED&page=2""#, "client_secret=MASKED", #"\"refresh_token\": \"MASKED\""#, #""Set-Cookie": "MASKED""#,
                       "sig=MASKED", "pin=MASKED"] {
            #expect(text.contains(masked), "\(masked) is missing from \(text)")
        }
        #expect(stderr.contains("Authorization: MASKED"))

        let replay = try RunningCommand([file.path])
        defer { _ = replay.terminate() }
        let replayPort = try Self.port(of: replay)
        // The standard names are masked on replay too (names given by option are the recording's own).
        for (path, arguments) in Self.requests.prefix(3) {
            let answer = try Self.curl(replayPort, path, arguments)
            #expect(answer.0 == 200 && answer.1.contains(#""access_token":"MASKED""#), "\(path): \(answer)")
        }
    }

    @Test("a request's control bytes stay %XX in the file name (newline, CR, ESC, BEL, DEL)")
    func controlBytesInNames() async throws {
        let upstream = try await Self.upstream()
        defer { upstream.stop() }
        let folder = try Tools.temporaryDirectory().appendingPathComponent("Recorded")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let recorder = try RunningCommand(["record", "--upstream", "http://127.0.0.1:\(upstream.port)", "--mock-data", folder.path])
        let port = try Self.port(of: recorder)
        _ = recorder.nextLine()
        #expect(try Self.curl(port, "/a%0Ab%0Dc%1Bd%07e%7F", []).0 == 200)
        #expect(try Self.curl(port, "/form", ["-H", "Content-Type: application/x-www-form-urlencoded", "--data-binary", "a=1\nb=\u{1B}2"]).0 == 200)
        _ = recorder.terminate()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.allSatisfy { !$0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }, "\(names)")
        #expect(Set(names) == ["GET|-a%0Ab%0Dc%1Bd%07e%7F.http", "POST|-form|a=1%0Ab=%1B2.http"], "\(names)")
        let replay = try RunningCommand(["--mock-data", folder.path])
        defer { _ = replay.terminate() }
        #expect(try Self.curl(try Self.port(of: replay), "/a%0Ab%0Dc%1Bd%07e%7F", []).0 == 200)
    }

    /// A line upstream: a greeting, then for each line `250 ok` and, after an `Authorization`
    /// line, a `Set-Cookie` line.
    static let lineServer = """
        import socket, threading
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        print(listener.getsockname()[1], flush=True)
        def serve(connection):
            connection.sendall(b"220 ready\\r\\n")
            for line in connection.makefile("rb"):
                if line.lower().startswith(b"authorization:"):
                    connection.sendall(b"250 ok\\r\\nSet-Cookie: sid=SECRETCOOKIE\\r\\n")
                elif line.startswith(b"QUIT"):
                    connection.sendall(b"221 bye\\r\\n")
                    connection.close()
                    return
                else:
                    connection.sendall(b"250 ok\\r\\n")
        while True:
            connection, _ = listener.accept()
            threading.Thread(target=serve, args=(connection,), daemon=True).start()
        """

    @Test("a line script: a masked header line is written as a pattern for any value, the upstream's too; not in the transcript file or --verbose; the replay answers another value",
          .enabled(if: Tools.hasPython))
    func lineScript() throws {
        let work = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let script = work.appendingPathComponent("line.json"), transcript = work.appendingPathComponent("transcript.jsonl")
        let server = try PythonServer(Self.lineServer)
        defer { server.stop() }
        let recorder = try RunningCommand(["record", "--upstream", "tcp://127.0.0.1:\(server.port)", "--script", script.path,
                                                            "--transcript", transcript.path, "--verbose"])
        let port = try Self.port(of: recorder)
        _ = recorder.nextLine()
        let client = try TestClient(port: port)
        #expect(try client.readLine() == "220 ready")
        try client.send("HELLO\r\nAuthorization: Bearer SECRETAUTH\r\n")
        #expect(try client.readLine() == "250 ok")
        #expect(try client.readLine() == "250 ok")
        #expect(try client.readLine() == "Set-Cookie: sid=SECRETCOOKIE", "the client gets the real value")
        try client.send("QUIT\r\n")
        #expect(try client.readLine() == "221 bye")
        #expect(try client.readToEnd().isEmpty)
        let (status, stderr) = recorder.terminate()
        #expect(status == 0 && stderr.contains("recorded 1 connections"), "\(stderr)")
        let text = String(decoding: try Data(contentsOf: script), as: UTF8.self)
        let written = text + String(decoding: try Data(contentsOf: transcript), as: UTF8.self) + stderr
        for secret in ["SECRETAUTH", "SECRETCOOKIE"] { #expect(!written.contains(secret), "\(secret) was written or printed") }
        #expect(text.contains(#""pattern": "^Authorization:.*$""#) && text.contains("Set-Cookie: sid=MASKED") == false && text.contains("Set-Cookie: MASKED"), "\(text)")
        #expect(stderr.contains("Authorization: MASKED"), "\(stderr)")

        let replay = try RunningCommand([script.path])
        defer { _ = replay.terminate() }
        let again = try TestClient(port: try #require(replay.ports?.0, "first line: \(replay.firstLine)"))
        #expect(try again.readLine() == "220 ready")
        try again.send("HELLO\r\nAuthorization: Basic OTHER\r\n")
        #expect(try again.readLine() == "250 ok")
        #expect(try again.readLine() == "250 ok")
        #expect(try again.readLine() == "Set-Cookie: MASKED")
    }
}
