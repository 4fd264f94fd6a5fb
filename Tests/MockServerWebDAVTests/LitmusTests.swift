import Foundation
import Testing
import TestSupport
import MockServerResponses
import MockServer

/// The `litmus` WebDAV test suite (neon's) against the bundled webdav.json.
@Suite("litmus against webdav.json", .offPool)
struct LitmusTests {
    /// One suite's line: "<- summary for `basic': of 16 tests run: 16 passed, 0 failed. 100.0%".
    struct Summary: Equatable {
        let suite: String
        let run: Int
        let passed: Int
    }

    static func summaries(_ output: String) -> [Summary] {
        output.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("<- summary for `"), let quote = line.dropFirst(16).firstIndex(of: "'") else { return nil }
            let suite = String(line.dropFirst(16)[..<quote])
            let numbers = line[quote...].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            guard numbers.count >= 2 else { return nil }
            return Summary(suite: suite, run: numbers[0], passed: numbers[1])
        }
    }

    @Test("basic, copymove, props and http pass every test; locks at least 90%; over http and over https", .enabled(if: Tools.hasLitmus),
          arguments: [false, true])
    func litmus(overTLS: Bool) throws {
        var configuration = MockServer.Configuration()
        // litmus checks no certificate (it tests the server's WebDAV, not its identity).
        if overTLS { configuration.tls = try .generated() }
        let server = try MockServer(script: BundledResponses.script(named: "webdav"), configuration: configuration)
        try server.start()
        defer { server.stop() }
        // litmus writes its debug.log where it runs.
        let directory = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = "\(overTLS ? "https" : "http")://127.0.0.1:\(server.port)/"
        let result = try Tools.run("litmus", ["-k", url, "user", "pass"], timeout: 300, directory: directory)
        let summaries = Self.summaries(result.stdout)
        #expect(summaries.map(\.suite) == ["basic", "copymove", "props", "locks", "http"], "\(result.stdout)\(result.stderr)")
        let failures = result.stdout.split(separator: "\n").filter { $0.contains("FAIL") }.joined(separator: "\n")
        for summary in summaries {
            if summary.suite == "locks" {
                #expect(Double(summary.passed) >= 0.9 * Double(summary.run), "locks: \(summary.passed) of \(summary.run)\n\(failures)")
            } else {
                #expect(summary.passed == summary.run, "\(summary.suite): \(summary.passed) of \(summary.run)\n\(failures)")
            }
        }
        // Every suite ran in full (litmus stops a suite at a failure of its setup); over https litmus
        // itself skips http's expect100 ("skipping for SSL server").
        #expect(summaries.map(\.run) == [16, 13, 30, 41, overTLS ? 3 : 4], "\(result.stdout)")
        #expect(!overTLS || result.stdout.contains("expect100............. SKIPPED (skipping for SSL server)"), "\(result.stdout)")
    }
}
