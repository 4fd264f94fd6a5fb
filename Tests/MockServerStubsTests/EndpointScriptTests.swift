import Foundation
import Testing
import TestSupport
import MockServerResponses
import MockServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stub scripts: `"endpoints"` files, through the library and the command line.
@Suite("Endpoint files", .offPool)
struct EndpointScriptTests {
    @Test("the bundled endpoints.json through mockserver, with curl: params, form into the cache, query, JSON paths, sequences",
          .enabled(if: Tools.hasCurl))
    func bundledThroughCommand() throws {
        let file = try #require(BundledResponses.url(named: "endpoints")).path
        let process = try ChildProcess(Tools.mockserver.path, [file])
        defer {
            process.send(SIGTERM)
            process.wait()
        }
        let first = PipeReading.readLine(process.output)
        let port = try #require(first.split(separator: ":").last.flatMap { UInt16($0) }, "first line: \(first)")
        #expect(first == "mockserver listening on 127.0.0.1:\(port)")
        let base = "http://127.0.0.1:\(port)"
        func curl(_ arguments: [String]) throws -> String {
            let result = try Tools.curl(arguments)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        #expect(try curl(["\(base)/config/1.0"]) == #"{"version":"1.0","features":["login","profile"]}"#)
        #expect(try curl(["-o", "/dev/null", "-w", "%{http_code}", "-d", "name=Ada%20L", "\(base)/login"]) == "204")
        #expect(try curl(["-i", "\(base)/profile"]).contains("X-User: Ada L\r\n"))
        #expect(try curl(["\(base)/profile"]) == "hi Ada L\n")
        #expect(try curl(["\(base)/search?q=a%20b"]) == "a b")
        #expect(try curl(["-H", "Content-Type: application/json", "-d", #"{"user":{"name":"Bo"}}"#, "\(base)/echo"]) == #""Bo""#)
        #expect(try curl(["-o", "/dev/null", "-w", "%{http_code}", "-d", "{}", "\(base)/echo"]) == "500")
        #expect(try curl(["\(base)/flaky", "\(base)/flaky", "\(base)/flaky"]) == "try again\nok\nok\n")
        let check = try Tools.run(Tools.mockserver.path, ["--check", file])
        #expect(check.status == 0)
        #expect(check.stdout.hasSuffix("OK, 7 endpoints\n"))
    }

    @Test("a stub added in code wins over the file's entries; the file's first match wins among them")
    func order() async throws {
        let server = HTTPMockServer()
        try server.addEndpoints(json: Array("""
            {"endpoints": [
                {"api": "get /a", "response": {"body": "first"}},
                {"api": "get /a", "response": {"body": "second"}},
            ]}
            """.utf8))
        try await server.start()
        defer { server.stop() }
        let first = try await URLSession(configuration: .ephemeral).data(from: server.url(for: "/a")).0
        #expect(first == Data("first".utf8))
        server.stubRequest("GET", "/a").andReturn(200).withBody("from code")
        let code = try await URLSession(configuration: .ephemeral).data(from: server.url(for: "/a")).0
        #expect(code == Data("from code".utf8))
    }

    @Test("errors name the key or value at fault, with line and column", arguments: [
        (#"{"endpoints": [{"api": "fetch /a", "response": {}}]}"#, "endpoints[0].api: an api is a method and a path"),
        (#"{"endpoints": [{"api": "get /a"}]}"#, #"endpoints[0] has no "response""#),
        (#"{"endpoints": [{"api": "get /a", "response": {"body": "${nope:x}"}}]}"#, "endpoints[0].response.body: ${nope:x} is not one of"),
        (#"{"endpoints": [{"api": "get /a", "response": {"status": 999}}]}"#, "endpoints[0].response.status: a status is a number from 100 to 599"),
        (#"{"endpoints": [{"api": "get /a", "response": {"bodie": "x"}}]}"#, "unknown key \"bodie\""),
        (#"{"endpoints": [{"api": "get /a", "api": "get /b", "response": {}}]}"#, "duplicate"),
    ])
    func errors(json: String, message: String) throws {
        Self.expectRefused(json, message)
    }

    /// Expects `json` to be refused with `message`, at a line and column of `stubs.json`.
    static func expectRefused(_ json: String, _ message: String) {
        let server = HTTPMockServer()
        do {
            try server.addEndpoints(json: Array(json.utf8), file: "stubs.json")
            Issue.record("loaded: \(json)")
        } catch {
            #expect(error.description.hasPrefix("stubs.json:1:"), "\(error)")
            #expect(error.description.contains(message), "\(error)")
        }
    }
}
