import MockServerTesting
import Testing

/// `import MockServerTesting` alone is enough for a test: the helpers and the whole MockServer API.
@Suite("One import")
struct OneImportTests {
    @Test("HTTPMockServer, the stub DSL and MockServer are visible through MockServerTesting alone")
    func oneImport() async throws {
        try await withHTTPMockServer { (server: HTTPMockServer) in
            let stub = server.stubRequest("GET", "/one").andReturn(204).stub
            #expect(stub.hits == 0)
            let script = try ResponseScript(json: #"{"responses": {"hi": {"pattern": "^HI$", "commands": ["hello"]}}}"#)
            let line = try MockServer(script: script)
            #expect(line.transcript.entries.isEmpty)
        }
    }
}

/// The helpers that hand back what their closure returns, and the builders, leave it unused without a
/// warning: each call below is a statement whose value is dropped, so the warning-free build is the check.
@Suite("Discardable results")
struct DiscardableResultTests {
    @Test("withHTTPMockServer, inOrder and withMockServer around a builder chain warn about no unused result")
    func unusedBuilders() async throws {
        try await withHTTPMockServer { server in server.stubRequest("GET", "/a").andReturn(200) }
        try await withHTTPMockServer { server in
            server.inOrder { server.stubRequest("POST", "/login").andReturn(200).withBody("ok") }
            #expect(server.stubs.count == 1)
        }
        let script = try ResponseScript(json: #"{"responses": {"hi": {"pattern": "^HI$", "commands": ["hello"]}}}"#)
        try await withMockServer(script: script) { server in server.removeFile("/none") }
    }
}
