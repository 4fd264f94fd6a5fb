import Foundation
import Testing
import TestSupport

/// Issue 53's acceptance for the route_guide example: a Python, a Go and a Swift client, each
/// generated the usual way, run one fixed scenario across the four call kinds against the example's
/// own server (Python) and against the mock started with `mockserver --proto route_guide.proto`, in
/// the same test, and print the same transcript (Tests/GRPCClients/route_guide/README.md). RouteChat
/// waits for the answers to each note before it sends the next, so a mock that answered only after
/// the client's half-close would fail it; each client is also shown to fail so on such a server.
// One test at a time: each holds a thread of the tests' shared pool (6) for seconds of child
// processes, and four at once starved other suites past their time limits in a full run (CI).
@Suite("route_guide: Python, Go and Swift clients against the example's server and the mock", .offPool, .serialized,
       .enabled(if: Tools.hasPythonModule("grpc_tools") && Tools.hasPythonModule("grpc_reflection") && Tools.hasPythonModule("grpc_health")))
struct RouteGuideClientTests {
    /// Runs `client` against the example's server, then against the mock: both transcripts must be
    /// the one committed beside the scenario.
    private func check(_ client: RouteGuideHarness.Client) throws {
        let expected = try RouteGuideHarness.expectedTranscript()

        let server = try RouteGuideHarness.startPythonServer()
        let reference = try client.run(port: server.port)
        server.stop()
        #expect(reference.status == 0, "\(client) against the example's server: \(reference.stderr)")
        #expect(reference.stdout == expected, "\(client) against the example's server printed:\n\(reference.stdout)\(reference.stderr)")

        let (mock, port) = try RouteGuideHarness.startMock(endpoints: "route_guide_endpoints.json")
        let result = try client.run(port: port)
        let (_, mockErrors) = mock.terminate()
        #expect(result.status == 0, "\(client) against the mock: \(result.stderr)\nmockserver's standard error: \(mockErrors)")
        #expect(result.stdout == expected, "\(client) against the mock printed:\n\(result.stdout)\(result.stderr)")
    }

    @Test("Python (grpcio, grpcio-tools): the same transcript from the example's server and the mock")
    func python() throws {
        try check(RouteGuideHarness.python)
    }

    @Test("Go (Debian's protoc-gen-go, protoc-gen-go-grpc and grpc-go): the same transcript from the example's server and the mock",
          .enabled(if: Tools.onPath("go") != nil && Tools.onPath("protoc") != nil))
    func go() throws {
        try check(RouteGuideHarness.go.get())
    }

    @Test("Swift (grpc-swift 2, swift-protobuf; Clients/RouteGuideSwift): the same transcript from the example's server and the mock")
    func swift() throws {
        try check(RouteGuideHarness.swift.get())
    }

    /// The clients' own check: on a server that answers RouteChat once the client has half-closed
    /// (today's bytes answers without `each`), each stops at the second note, the first that awaits
    /// an answer, and says why; the calls before it went through.
    @Test("each client fails, saying why, on a server that answers RouteChat only after the half-close",
          .enabled(if: Tools.onPath("go") != nil && Tools.onPath("protoc") != nil))
    func halfCloseOnlyServerFails() throws {
        let clients = try [RouteGuideHarness.python, RouteGuideHarness.go.get(), RouteGuideHarness.swift.get()]
        let (mock, port) = try RouteGuideHarness.startMock(endpoints: "route_guide_endpoints_half_close.json", schema: false)
        defer { _ = mock.terminate() }
        for client in clients {
            let started = Date()
            let result = try client.run(port: port, deadline: 3)
            let seconds = Date().timeIntervalSince(started)
            #expect(result.status == 1, "\(client): status \(result.status)")
            #expect(result.stderr.contains("FAILED: RouteChat: no answer to note 2 within "), "\(client): \(result.stderr)")
            #expect(result.stdout.split(separator: "\n").last == #"RouteChat sent "second at A" at (386900000, -92000000)"#, "\(client): \(result.stdout)")
            #expect(result.stdout.contains("RecordRoute 5 points: point_count=5 feature_count=4 distance=19263"), "\(client): \(result.stdout)")
            #expect(seconds >= 3, "\(client) gave up after \(seconds) s, before its deadline")
        }
    }
}
