import Foundation
import Testing
import TestSupport

/// `mockserver --admin`: the control API, driven by Python's urllib (Tests/Python/test_admin.py) and curl.
@Suite("mockserver --admin", .offPool)
struct AdminTests {
    static let pythonTest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Python/test_admin.py")

    @Test("the Python test (Docs/Admin.md's example): set switch, wait, upload, transcript, endpoints, reset, shutdown", .enabled(if: Tools.hasPython))
    func python() throws {
        let result = try Tools.run("python3", [Self.pythonTest.path], timeout: 120, environment: ["MOCKSERVER": Tools.mockserver.path])
        #expect(result.status == 0 && result.stdout == "ok\n", "\(result.stdout)\(result.stderr)")
    }

    static let dashboardTest = pythonTest.deletingLastPathComponent().appendingPathComponent("test_dashboard.py")

    /// Chromium and Python's websockets, which the dashboard test drives (CI installs both).
    static let canDriveChromium: Bool = Tools.hasCurl && Tools.path(of: "chromium") != nil
        && (try? Tools.run("python3", ["-c", "import websockets"]).status) == 0

    @Test("the dashboard in headless Chromium: a curl request appears without a reload, a set switched from the page (Enter) answers, a file is deleted, one column when narrow; a stub server's unmatched requests counted once while refreshes race the long poll",
          .enabled(if: canDriveChromium))
    func dashboard() throws {
        let folder = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let responses = Self.pythonTest.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Responses/http.json")
        let endpoints = responses.deletingLastPathComponent().appendingPathComponent("endpoints.json")
        let screenshot = folder.appendingPathComponent("dashboard.png")
        let result = try Tools.run("python3", [Self.dashboardTest.path], timeout: 180,
                                   environment: ["MOCKSERVER": Tools.mockserver.path, "RESPONSES": responses.path, "ENDPOINTS": endpoints.path, "SCREENSHOT": screenshot.path])
        #expect(result.status == 0 && result.stdout == "ok\n", "\(result.stdout)\(result.stderr)")
        // A PNG of the page was taken.
        let picture = try Data(contentsOf: screenshot)
        #expect(picture.starts(with: [0x89, 0x50, 0x4E, 0x47]) && picture.count > 10_000)
    }

    @Test("GET / is the dashboard page, self-contained; the long poll answers when something happens; the paths it reads answer",
          .enabled(if: Tools.hasCurl))
    func dashboardPaths() async throws {
        let command = try RunningCommand(["--admin"])
        let (port, _) = try #require(command.ports)
        let admin = try #require(command.nextLine().split(separator: " ").last.map(String.init))
        defer { _ = command.terminate() }
        let page = try Tools.curl(["-s", "-D", "-", admin])
        #expect(page.stdout.contains("Content-Type: text/html; charset=utf-8\r\n"))
        #expect(page.stdout.contains("Content-Security-Policy: default-src 'self'"))
        #expect(page.stdout.contains("<title>MockServer dashboard</title>"))
        // No external assets: nothing is loaded from another address.
        #expect(!page.stdout.contains("src=\"http") && !page.stdout.contains("href=\"http") && !page.stdout.contains("@import"))
        let before = try Tools.curl(["-s", admin + "transcript"]).stdout
        let next = try #require((try JSONSerialization.jsonObject(with: Data(before.utf8)) as? [String: Any])?["next"] as? Int)
        // Nothing happens: the long poll answers empty after its wait.
        #expect(try Tools.curl(["-s", admin + "transcript?since=\(next)&wait=0.2"]).stdout == #"{"entries":[],"next":\#(next)}"# + "\n")
        // Something happens while it waits (or before it asks): it answers with it at once.
        let poll = BackgroundRun { try Tools.curl(["-s", admin + "transcript?since=\(next)&wait=30"]) }
        #expect(try Tools.curl(["ftp://127.0.0.1:\(port)/x"]).stdout == "Hello from MockServer!\n")
        let answered = try await poll.value().stdout
        #expect(answered.contains(#""event":"connected""#), "\(answered)")
        #expect(try Tools.curl(["-s", admin + "info"]).stdout.contains(#""kind":"script""#))
        #expect(try Tools.curl(["-s", admin + "sets"]).stdout.contains(#""current":"default""#))
        #expect(try Tools.curl(["-s", admin + "stubs"]).stdout == #"{"stubs":[]}"# + "\n")
        #expect(try Tools.curl(["-s", admin + "transcript?wait=soon"]).stdout.contains("wait must be seconds"))
        _ = try Tools.curl(["-s", "-X", "PUT", "-H", "Content-Type: application/octet-stream", "--data-binary", "abc", admin + "files/in/a.txt"])
        #expect(try Tools.curl(["-s", admin + "files/in/a.txt"]).stdout == "abc")
        #expect(try Tools.curl(["-s", "-w", " %{http_code}", admin + "files/in/none.txt"]).stdout.hasSuffix(" 404"))
    }

    @Test("bad admin input gets a 4xx naming the culprit, and the mock keeps serving", .enabled(if: Tools.hasCurl))
    func badInput() throws {
        let folder = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let command = try RunningCommand(["--admin", "--transcript", folder.appendingPathComponent("t.jsonl").path])
        let (port, _) = try #require(command.ports)
        let adminLine = command.nextLine()
        let admin = try #require(adminLine.split(separator: " ").last.map(String.init), "\(adminLine)")
        #expect(adminLine.hasPrefix("mockserver admin on http://127.0.0.1:") && admin.hasSuffix("/"))
        defer { _ = command.terminate() }
        func call(_ arguments: [String]) throws -> String {
            try Tools.curl(["-w", " %{http_code}"] + arguments).stdout
        }
        #expect(try call(["-X", "POST", "-H", "Content-Type: application/json", "-d", "{not json", admin + "set"]) == #"{"error":"the body is not a JSON object: {not json"}"# + "\n 400")
        #expect(try call(["-X", "POST", "-H", "Content-Type: application/json", "-d", #"{"name":"nope"}"#, admin + "set"]).contains(#"there is no set \"nope\""#))
        #expect(try call([admin + "wait?input=(&timeout=1"]).hasSuffix(" 400"))
        #expect(try call([admin + "wait?input=x&timeout=soon"]).contains("timeout must be seconds"))
        #expect(try call(["-X", "POST", "-H", "Content-Type: application/json", "-d", "[]", admin + "endpoints"]).hasSuffix(" 409"))
        let huge = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID())")
        try Data(count: 2 << 20).write(to: huge)
        defer { try? FileManager.default.removeItem(at: huge) }
        #expect(try call(["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", "@\(huge.path)", admin + "set"]).hasSuffix(" 413"))
        let unknown = try call([admin + "nothing"])
        #expect(unknown.hasSuffix(" 404") && unknown.contains("\"paths\":[\"GET /\",\"GET /transcript?since=N&wait=S\""))
        #expect(try call(["-X", "PUT", "-H", "Content-Type: application/json", "-d", "x", admin + "transcript"]).hasSuffix(" 405"))
        // The mock itself still answers.
        #expect(try Tools.curl(["ftp://127.0.0.1:\(port)/x"]).stdout == "Hello from MockServer!\n")
        #expect(try call(["-X", "PUT", "-H", "Content-Type: application/octet-stream", "--data-binary", "fresh", admin + "files/docs/new.txt"]).hasSuffix(" 200"))
        #expect(try Tools.curl(["ftp://127.0.0.1:\(port)/docs/new.txt"]).stdout == "fresh")
        #expect(try call([admin + "files"]) == #"{"files":{"/docs/new.txt":5}}"# + "\n 200")
        #expect(try call(["-X", "DELETE", admin + "files/docs"]).hasSuffix(" 200"))
        #expect(try call(["-X", "DELETE", admin + "files/docs"]).hasSuffix(" 404"))
    }

    @Test("a stub server has no response sets: GET /sets lists none, POST /set is a 409 naming the set, and the stubs still answer", .enabled(if: Tools.hasCurl))
    func stubServerHasNoSets() throws {
        let endpoints = Self.pythonTest.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Responses/endpoints.json")
        let command = try RunningCommand(["--admin", endpoints.path])
        let port = try #require(command.firstLine.split(separator: ":").last.flatMap { Int($0) }, "\(command.firstLine)")
        let admin = try #require(command.nextLine().split(separator: " ").last.map(String.init))
        defer { _ = command.terminate() }
        #expect(try Tools.curl(["-s", "-w", " %{http_code}", admin + "sets"]).stdout == #"{"sets":[]}"# + "\n 200")
        let switched = try Tools.curl(["-s", "-w", " %{http_code}", "-H", "Content-Type: application/json", "-d", #"{"name": "default"}"#, admin + "set"]).stdout
        #expect(switched == #"{"error":"this mock serves stubs: it has no response sets (asked for set default)"}"# + "\n 409", "\(switched)")
        #expect(try Tools.curl(["-s", "http://127.0.0.1:\(port)/config/3"]).stdout == #"{"version":"3","features":["login","profile"]}"#)
    }

    @Test("other sites are refused: a foreign Host, a foreign Origin, a form-typed body (403 naming why, the mock unchanged); the page's own origin is not",
          .enabled(if: Tools.hasCurl))
    func otherSitesRefused() throws {
        let command = try RunningCommand(["--admin"])
        let (port, _) = try #require(command.ports)
        let admin = try #require(command.nextLine().split(separator: " ").last.map(String.init))
        let adminPort = try #require(URL(string: admin)?.port)
        defer { _ = command.terminate() }
        func call(_ arguments: [String]) throws -> String {
            try Tools.curl(["-s", "-w", " %{http_code}"] + arguments).stdout
        }
        let json = ["-H", "Content-Type: application/json"]
        // DNS rebinding: a page at evil.example.com whose name now points at 127.0.0.1.
        let rebound = try call(["-H", "Host: evil.example.com:\(adminPort)", admin + "transcript"])
        #expect(rebound.hasSuffix(" 403") && rebound.contains("Host evil.example.com:\(adminPort) is not the control API's address"), "\(rebound)")
        let otherPort = try call(["-H", "Host: 127.0.0.1:1", admin + "files"])
        #expect(otherPort.hasSuffix(" 403"), "\(otherPort)")
        // A page elsewhere posting with fetch or a form.
        let shutdown = try call(["-X", "POST", "-H", "Origin: http://evil.example.com", "-H", "Content-Type: text/plain", admin + "shutdown"])
        #expect(shutdown.hasSuffix(" 403") && shutdown.contains("Origin http://evil.example.com is another site"), "\(shutdown)")
        let stored = try call(["-X", "PUT", "-H", "Origin: http://evil.example.com"] + ["-H", "Content-Type: application/octet-stream", "--data-binary", "x", admin + "files/evil.txt"])
        #expect(stored.hasSuffix(" 403"), "\(stored)")
        let plain = try call(["-X", "POST", "-H", "Content-Type: text/plain", "-d", #"{"name": "stor denied"}"#, admin + "set"])
        #expect(plain.hasSuffix(" 403") && plain.contains("Content-Type text/plain, which any web page can send"), "\(plain)")
        let form = try call(["-X", "POST", "-d", #"{"name": "stor denied"}"#, admin + "set"])
        #expect(form.hasSuffix(" 403") && form.contains("application/x-www-form-urlencoded"), "\(form)")
        let untyped = try call(["-X", "POST", "-H", "Content-Type:", "-d", #"{"name": "stor denied"}"#, admin + "set"])
        #expect(untyped.hasSuffix(" 403") && untyped.contains("has a body but no Content-Type"), "\(untyped)")
        // Nothing changed: the process runs, no file was stored, the set is the first one (STOR is allowed).
        #expect(try call([admin + "files"]) == #"{"files":{}}"# + "\n 200")
        let upload = try Tools.curl(["-s", "-w", "%{http_code}", "-T", "-", "ftp://127.0.0.1:\(port)/up.txt"], input: "data")
        #expect(upload.stdout == "226", "\(upload.stderr)")
        // The page's own requests: its origin, any of the admin's host names, JSON.
        for host in ["127.0.0.1", "localhost", "LOCALHOST", "[::1]"] {
            let own = try call(["-H", "Host: \(host):\(adminPort)", "-H", "Origin: http://\(host.lowercased()):\(adminPort)", admin + "unmatched"])
            #expect(own.hasSuffix(" 200"), "\(host): \(own)")
        }
        let switched = try call(["-X", "POST", "-H", "Origin: http://127.0.0.1:\(adminPort)"] + json + ["-d", #"{"name": "stor denied"}"#, admin + "set"])
        #expect(switched.hasSuffix(" 200"), "\(switched)")
        let denied = try Tools.curl(["-s", "-w", "%{http_code}", "-T", "-", "ftp://127.0.0.1:\(port)/up2.txt"], input: "data")
        #expect(denied.stdout != "226", "\(denied.stdout)")
        // A POST without a body (curl, scripts) needs no type.
        #expect(try call(["-X", "POST", admin + "reset"]).hasSuffix(" 200"))
    }

    @Test("--transcript FILE holds one JSON object a line, written as things happen", .enabled(if: Tools.hasCurl))
    func transcriptFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("transcript-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let command = try RunningCommand(["--transcript", file.path])
        let (port, _) = try #require(command.ports)
        _ = try Tools.curl(["ftp://127.0.0.1:\(port)/x"])
        // Read while the server still runs: each entry is written as it happens, so the entry being
        // written at this moment (the session's close, say) may be there in part: only lines ended
        // by their newline are whole.
        let text = try String(contentsOf: file, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().filter { !$0.isEmpty }
        #expect(command.terminate().0 == 0)
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.first?["event"] as? String == "connected")
        #expect(objects.contains { $0["event"] as? String == "input" && $0["data"] as? String == "RETR x" })
        #expect(objects.map { $0["sequence"] as? Int ?? -1 } == Array(0..<objects.count))
    }
}
