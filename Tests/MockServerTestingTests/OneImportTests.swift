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
