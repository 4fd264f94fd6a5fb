import Foundation
import Testing
import TestSupport

/// Issue 53's acceptance for reflection and health: grpcio-reflection's own client (a
/// `ProtoReflectionDescriptorDatabase` behind a `DescriptorPool`, as GUI clients and grpcurl work)
/// lists the services and describes RouteGuide's methods and messages, and grpc_health_probe's checks
/// (grpcio-health-checking) ask for the server, RouteGuide and an unknown service; the example's
/// server (reflection and health on) and the mock, started with the schema, must print the same.
// One test at a time: each holds a thread of the tests' shared pool (6) for seconds of child
// processes, and four at once starved other suites past their time limits in a full run (CI).
@Suite("route_guide: reflection and health from the example's server and the mock", .offPool, .serialized,
       .enabled(if: Tools.hasPythonModule("grpc_tools") && Tools.hasPythonModule("grpc_reflection") && Tools.hasPythonModule("grpc_health")))
struct RouteGuideDiscoveryTests {
    /// Runs the Python program `script` of the harness's folder against the example's server, then
    /// against the mock: both must print the text of `expected`, a file beside it.
    private func check(_ script: String, expected: String) throws {
        let program = RouteGuideHarness.folder.appendingPathComponent(script).path
        let wanted = try RouteGuideHarness.text(expected)

        let server = try RouteGuideHarness.startPythonServer()
        let reference = try Tools.run("python3", [program, "127.0.0.1:\(server.port)"], timeout: 60)
        server.stop()
        #expect(reference.status == 0 && reference.stdout == wanted, "\(script) against the example's server printed:\n\(reference.stdout)\(reference.stderr)")

        let (mock, port) = try RouteGuideHarness.startMock(endpoints: "route_guide_endpoints.json")
        let result = try Tools.run("python3", [program, "127.0.0.1:\(port)"], timeout: 60)
        let (_, mockErrors) = mock.terminate()
        #expect(result.status == 0 && result.stdout == wanted,
                "\(script) against the mock printed:\n\(result.stdout)\(result.stderr)\nmockserver's standard error: \(mockErrors)")
    }

    @Test("reflection: RouteGuide listed beside health and reflection, its file, four methods with their streaming and five messages described")
    func reflection() throws {
        try check("route_guide_reflection.py", expected: "route_guide_reflection.txt")
    }

    @Test(#"health: Check "" and "routeguide.RouteGuide" are SERVING, an unknown service NOT_FOUND"#)
    func health() throws {
        try check("route_guide_health.py", expected: "route_guide_health.txt")
    }
}
