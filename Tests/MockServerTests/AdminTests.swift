import Foundation
import Testing
import TestSupport

/// `mockserver --admin`: the control API, driven by Python's urllib (Tests/Python/test_admin.py) and curl.
@Suite("mockserver --admin")
struct AdminTests {
    static let pythonTest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Python/test_admin.py")

    @Test("the Python test (README's example): set switch, wait, upload, transcript, endpoints, reset, shutdown", .enabled(if: Tools.hasPython))
    func python() throws {
        let result = try Tools.run("python3", [Self.pythonTest.path], timeout: 120, environment: ["MOCKSERVER": Tools.mockserver.path])
        #expect(result.status == 0 && result.stdout == "ok\n", "\(result.stdout)\(result.stderr)")
    }

    @Test("bad admin input gets a 4xx naming the culprit, and the mock keeps serving", .enabled(if: Tools.hasCurl))
    func badInput() throws {
        let command = try CommandLineTests.RunningCommand(["--admin", "--transcript", FileManager.default.temporaryDirectory.appendingPathComponent("t-\(UUID()).jsonl").path])
        let (port, _) = try #require(command.ports)
        let adminLine = command.nextLine()
        let admin = try #require(adminLine.split(separator: " ").last.map(String.init), "\(adminLine)")
        #expect(adminLine.hasPrefix("mockserver admin on http://127.0.0.1:") && admin.hasSuffix("/"))
        defer { _ = command.terminate() }
        func call(_ arguments: [String]) throws -> String {
            try Tools.curl(["-w", " %{http_code}"] + arguments).stdout
        }
        #expect(try call(["-X", "POST", "-d", "{not json", admin + "set"]) == #"{"error":"the body is not a JSON object: {not json"}"# + "\n 400")
        #expect(try call(["-X", "POST", "-d", #"{"name":"nope"}"#, admin + "set"]).contains(#"there is no set \"nope\""#))
        #expect(try call([admin + "wait?input=(&timeout=1"]).hasSuffix(" 400"))
        #expect(try call([admin + "wait?input=x&timeout=soon"]).contains("timeout must be seconds"))
        #expect(try call(["-X", "POST", "-d", "[]", admin + "endpoints"]).hasSuffix(" 409"))
        let huge = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID())")
        try Data(count: 2 << 20).write(to: huge)
        defer { try? FileManager.default.removeItem(at: huge) }
        #expect(try call(["-X", "POST", "--data-binary", "@\(huge.path)", admin + "set"]).hasSuffix(" 413"))
        let unknown = try call([admin + "nothing"])
        #expect(unknown.hasSuffix(" 404") && unknown.contains("\"paths\":[\"GET /transcript?since=N\""))
        #expect(try call(["-X", "PUT", "-d", "x", admin + "transcript"]).hasSuffix(" 405"))
        // The mock itself still answers.
        #expect(try Tools.curl(["ftp://127.0.0.1:\(port)/x"]).stdout == "Hello from MockServer!\n")
        #expect(try call(["-X", "PUT", "--data-binary", "fresh", admin + "files/docs/new.txt"]).hasSuffix(" 200"))
        #expect(try Tools.curl(["ftp://127.0.0.1:\(port)/docs/new.txt"]).stdout == "fresh")
        #expect(try call([admin + "files"]) == #"{"files":{"/docs/new.txt":5}}"# + "\n 200")
        #expect(try call(["-X", "DELETE", admin + "files/docs"]).hasSuffix(" 200"))
        #expect(try call(["-X", "DELETE", admin + "files/docs"]).hasSuffix(" 404"))
    }

    @Test("--transcript FILE holds one JSON object a line, written as things happen", .enabled(if: Tools.hasCurl))
    func transcriptFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("transcript-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let command = try CommandLineTests.RunningCommand(["--transcript", file.path])
        let (port, _) = try #require(command.ports)
        _ = try Tools.curl(["ftp://127.0.0.1:\(port)/x"])
        // Read while the server still runs: each entry is written as it happens.
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        #expect(command.terminate().0 == 0)
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.first?["event"] as? String == "connected")
        #expect(objects.contains { $0["event"] as? String == "input" && $0["data"] as? String == "RETR x" })
        #expect(objects.map { $0["sequence"] as? Int ?? -1 } == Array(0..<objects.count))
    }
}
