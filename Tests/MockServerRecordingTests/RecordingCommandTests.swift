import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
import MockServer

/// `mockserver record` against a real nginx, met by curl, Python's requests and URLSession; then
/// the recording replayed with nginx stopped.
@Suite("Recording HTTP: mockserver record", .offPool, .enabled(if: Nginx.isAvailable && Tools.hasCurl && Tools.hasPython))
struct RecordingCommandTests {
    /// What a client got: status, the headers that matter, the body's bytes.
    struct Answer: Equatable, CustomStringConvertible {
        var status: Int
        var headers: [String: String]
        var body: Data
        var description: String { "\(status) \(headers) \(body.count) bytes" }
    }

    static let secrets = ["SECRETAUTH", "SECRETCOOKIE", "SECRETTOKEN", "SECRETREQUESTCOOKIE"]

    static func startNginx() throws -> Nginx {
        let big = Data(String(repeating: "all work and no play makes a mock server\n", count: 200).utf8)
        return try Nginx(files: ["index.html": Data("hello\n".utf8), "dir/a.txt": Data("in a folder\n".utf8), "big.txt": big,
                                 "search.json": Data(#"{"results": ["a", "b"]}"#.utf8)],
                         extraServerConfiguration: """
                            gzip on; gzip_types text/plain; gzip_min_length 100;
                            location = /secret {
                              default_type application/json;
                              add_header Set-Cookie "session=SECRETCOOKIE; HttpOnly";
                              return 200 '{"token": "SECRETTOKEN", "user": {"name": "ann", "token": "SECRETTOKEN"}}';
                            }
                            """)
    }

    /// curl's answer for `path` with `arguments`, the body's bytes as sent (no decoding).
    static func curl(_ port: UInt16, _ path: String, _ arguments: [String] = []) throws -> Answer {
        let directory = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let body = directory.appendingPathComponent("body")
        let result = try Tools.curl(["-D", "-", "-o", body.path] + arguments + ["http://127.0.0.1:\(port)\(path)"])
        #expect(result.status == 0, "curl \(path): \(result.stderr)")
        var lines = result.stdout.components(separatedBy: "\r\n")
        let status = Int(lines.removeFirst().split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            if ["content-type", "content-encoding", "location", "etag", "last-modified"].contains(name) {
                headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return Answer(status: status, headers: headers, body: (try? Data(contentsOf: body)) ?? Data())
    }

    static let curlRequests: [(String, [String])] = [
        ("/index.html", []),
        ("/dir", []),
        ("/big.txt", ["-H", "Accept-Encoding: gzip"]),
        ("/missing.html", []),
        ("/search.json?q=a%20b&page=2", []),
        ("/secret", ["-H", "Authorization: Bearer SECRETAUTH", "-H", "Cookie: id=SECRETREQUESTCOOKIE"]),
    ]

    static let pythonClient = """
        import requests, sys
        port = sys.argv[1]
        r = requests.get(f"http://127.0.0.1:{port}/dir/a.txt", headers={"Authorization": "Basic SECRETAUTH"}, cookies={"c": "SECRETREQUESTCOOKIE"})
        print(r.status_code, repr(r.text))
        r = requests.get(f"http://127.0.0.1:{port}/big.txt")
        print(r.status_code, r.headers.get("Content-Encoding"), len(r.text), r.text.count("mock server"))
        """

    static func python(_ port: UInt16) throws -> String {
        let result = try Tools.run("python3", ["-c", pythonClient, String(port)])
        #expect(result.status == 0, "requests: \(result.stderr)")
        return result.stdout
    }

    static func urlSession(_ port: UInt16) async throws -> Answer {
        let (data, response) = try await URLSession(configuration: .ephemeral).data(from: URL(string: "http://127.0.0.1:\(port)/search.json?q=swift")!)
        let http = try #require(response as? HTTPURLResponse)
        return Answer(status: http.statusCode, headers: ["content-type": http.value(forHTTPHeaderField: "Content-Type") ?? ""], body: data)
    }

    /// Every byte under `folder` (file names included), for the masking check.
    static func everythingWritten(in folder: URL) throws -> String {
        var text = ""
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            text += name + "\n" + String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
        }
        return text
    }

    @Test("curl, requests and URLSession recorded into a mock-data folder; replayed with nginx stopped: same status, headers and bytes; no secret written")
    func recordsMockData() async throws {
        let work = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = work.appendingPathComponent("VOKMockData")
        let transcript = work.appendingPathComponent("transcript.jsonl")
        var nginx: Nginx? = try Self.startNginx()
        let upstream = try #require(nginx?.port)

        let recorder = try RunningCommand(["record", "--upstream", "http://127.0.0.1:\(upstream)", "--mock-data", folder.path,
                                                            "--mask-json-field", "token", "--transcript", transcript.path])
        let port = try #require(UInt16(recorder.firstLine.split(separator: ":").last ?? ""), "first line: \(recorder.firstLine)")
        #expect(recorder.firstLine == "mockserver listening on 127.0.0.1:\(port)")
        #expect(recorder.nextLine() == "mockserver recording http://127.0.0.1:\(upstream) into \(folder.path)")
        var recorded: [Answer] = []
        for (path, arguments) in Self.curlRequests { recorded.append(try Self.curl(port, path, arguments)) }
        let pythonRecorded = try Self.python(port)
        let sessionRecorded = try await Self.urlSession(port)
        let (status, stderr) = recorder.terminate()
        #expect(status == 0)
        // requests asks for /big.txt again: the folder answers it now (capture on miss).
        #expect(stderr.contains("mockserver recorded 8 exchanges (1 answered from \(folder.path), 0 upstream failures)"), "\(stderr)")

        // What the clients saw while recording is nginx's answer.
        #expect(recorded[0] == Answer(status: 200, headers: recorded[0].headers, body: Data("hello\n".utf8)))
        #expect(recorded[1].status == 301 && recorded[1].headers["location"] == "/dir/")
        #expect(recorded[2].headers["content-encoding"] == "gzip" && recorded[2].body.count < 8200)
        #expect(recorded[3].status == 404)
        #expect(recorded[5].body == Data(#"{"token": "SECRETTOKEN", "user": {"name": "ann", "token": "SECRETTOKEN"}}"#.utf8))
        #expect(pythonRecorded.hasPrefix("200 'in a folder\\n'\n200 gzip 8200 200"), "\(pythonRecorded)")
        #expect(sessionRecorded.body == Data(#"{"results": ["a", "b"]}"#.utf8))

        let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(names == ["GET|-index.html.http", "GET|-dir.http", "GET|-big.txt.http", "GET|-missing.html.http", "GET|-search.json?q=a%20b&page=2.http",
                          "GET|-secret.http", "GET|-dir-a.txt.http", "GET|-search.json?q=swift.http"])
        let written = try Self.everythingWritten(in: folder) + String(decoding: try Data(contentsOf: transcript), as: UTF8.self)
        for secret in Self.secrets { #expect(!written.contains(secret), "\(secret) was written") }
        #expect(written.contains("Authorization"), "the transcript shows the request's headers, masked")
        nginx?.stop()
        nginx = nil

        let replay = try RunningCommand(["--mock-data", folder.path])
        let replayPort = try #require(UInt16(replay.firstLine.split(separator: ":").last ?? ""), "first line: \(replay.firstLine)")
        defer { _ = replay.terminate() }
        for (index, (path, arguments)) in Self.curlRequests.enumerated() {
            let answer = try Self.curl(replayPort, path, arguments)
            if path == "/secret" {
                #expect(answer.status == 200)
                #expect(answer.body == Data(#"{"user":{"name":"ann","token":"MASKED"},"token":"MASKED"}"#.utf8)
                        || answer.body == Data(#"{"token":"MASKED","user":{"name":"ann","token":"MASKED"}}"#.utf8), "\(String(decoding: answer.body, as: UTF8.self))")
            } else {
                #expect(answer == recorded[index], "\(path)")
            }
        }
        #expect(try Self.python(replayPort) == pythonRecorded)
        #expect(try await Self.urlSession(replayPort) == sessionRecorded)
    }

    @Test("an endpoints file: kept endpoints answer first, a changed answer becomes a sequence, a gzip body is kept as base64; replayed by mockserver FILE")
    func recordsEndpoints() throws {
        let work = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.appendingPathComponent("recorded.json")
        try Data(#"{ "endpoints": [ { "api": "get /preset", "response": { "body": "from the file\n" } }, ] }"#.utf8).write(to: file)
        var nginx: Nginx? = try Self.startNginx()
        let upstream = try #require(nginx?.port)
        let recorder = try RunningCommand(["record", "--upstream", "http://127.0.0.1:\(upstream)", "--endpoints", file.path, "--keep-timing",
                                                            "--mask-json-field", "token"])
        let port = try #require(UInt16(recorder.firstLine.split(separator: ":").last ?? ""), "first line: \(recorder.firstLine)")
        _ = recorder.nextLine()
        let root = try #require(nginx?.root)
        var recorded: [String: [Answer]] = [:]
        #expect(try Self.curl(port, "/preset").body == Data("from the file\n".utf8))
        // The file is written once per version: a second write of the same text could move its
        // Last-Modified and ETag to the next second, a different answer.
        var written: String?
        for version in ["one", "one", "two"] {
            if written != version {
                try Data("version \(version)\n".utf8).write(to: root.appendingPathComponent("version.txt"))
                written = version
            }
            recorded["/version.txt", default: []].append(try Self.curl(port, "/version.txt"))
        }
        for (path, arguments) in Self.curlRequests { recorded[path, default: []].append(try Self.curl(port, path, arguments)) }
        let (status, stderr) = recorder.terminate()
        #expect(status == 0)
        #expect(stderr.contains("mockserver recorded 9 exchanges (1 answered from"), "\(stderr)")
        nginx?.stop()
        nginx = nil

        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        for secret in Self.secrets { #expect(!text.contains(secret), "\(secret) was written") }
        #expect(text.contains(#""api": "get /preset""#) && text.contains(#""base64": ""#) && text.contains(#""delay": "#))
        #expect(text.contains(#""responses": ["#))
        let check = try Tools.run(Tools.mockserver.path, ["--check", file.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        let replay = try RunningCommand([file.path])
        let replayPort = try #require(UInt16(replay.firstLine.split(separator: ":").last ?? ""), "first line: \(replay.firstLine)")
        defer { _ = replay.terminate() }
        // The sequence: "one" (twice recorded, kept once), then "two", which repeats.
        let versions = try (0..<3).map { _ in String(decoding: try Self.curl(replayPort, "/version.txt").body, as: UTF8.self) }
        #expect(versions == ["version one\n", "version two\n", "version two\n"])
        for (path, arguments) in Self.curlRequests {
            let answer = try Self.curl(replayPort, path, arguments)
            let original = try #require(recorded[path]?.first)
            #expect(answer.status == original.status, "\(path)")
            if path != "/secret" {
                #expect(answer.body == original.body, "\(path)")
                #expect(answer.headers["content-type"] == original.headers["content-type"] && answer.headers["content-encoding"] == original.headers["content-encoding"]
                        && answer.headers["location"] == original.headers["location"], "\(path): \(answer.headers) \(original.headers)")
            }
        }
    }
}

/// Recording an https upstream: nginx with a certificate from a generated test CA.
@Suite("Recording HTTP: an https upstream", .offPool, .enabled(if: Nginx.isAvailable && Tools.hasCurl))
struct HTTPSRecordingTests {
    @Test("the upstream's certificate is checked against --upstream-ca (by address and by name); without it the client gets a 502 that says why")
    func httpsUpstream() throws {
        let work = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let identity = try TLSSettings.Identity.generated()
        let certificate = work.appendingPathComponent("cert.pem"), key = work.appendingPathComponent("key.pem"), ca = work.appendingPathComponent("ca.pem")
        try Data(identity.certificatePEM.utf8).write(to: certificate)
        try Data(identity.privateKeyPEM.utf8).write(to: key)
        try Data(try #require(identity.caCertificatePEM).utf8).write(to: ca)
        let nginx = try Nginx(files: ["index.html": Data("over tls\n".utf8)],
                              extraServerConfiguration: "ssl_certificate \(certificate.path); ssl_certificate_key \(key.path);", listenOptions: "ssl")
        for host in ["127.0.0.1", "localhost"] {
            let folder = work.appendingPathComponent("recorded-\(host)")
            let recorder = try RunningCommand(["record", "--upstream", "https://\(host):\(nginx.port)", "--upstream-ca", ca.path,
                                                                "--mock-data", folder.path])
            let port = try #require(UInt16(recorder.firstLine.split(separator: ":").last ?? ""), "first line: \(recorder.firstLine)")
            #expect(recorder.nextLine() == "mockserver recording https://\(host):\(nginx.port) into \(folder.path)")
            let answer = try Tools.curl(["-w", " %{http_code}", "http://127.0.0.1:\(port)/index.html"])
            #expect(answer.stdout == "over tls\n 200", "\(answer.stdout)\(answer.stderr)")
            _ = recorder.terminate()
            #expect(try String(contentsOf: folder.appendingPathComponent("GET|-index.html.http"), encoding: .utf8).hasSuffix("\r\n\r\nover tls\n"))
        }
        // The system's store does not have the test CA: the handshake fails, and the client hears why.
        let refused = try RunningCommand(["record", "--upstream", "https://127.0.0.1:\(nginx.port)", "--mock-data", work.appendingPathComponent("none").path])
        defer { _ = refused.terminate() }
        let port = try #require(UInt16(refused.firstLine.split(separator: ":").last ?? ""), "first line: \(refused.firstLine)")
        let answer = try Tools.curl(["-w", " %{http_code}", "http://127.0.0.1:\(port)/index.html"])
        #expect(answer.stdout.hasSuffix(" 502") && answer.stdout.contains("certificate verify failed"), "\(answer.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("none").path).isEmpty)
    }
}
