#if compiler(>=6.1)
import Foundation
import MockServerResponses
import MockServerTesting
import TestSupport
import Testing

/// Sends `GET path` to the server on `port` over a connection of its own and returns the whole answer.
private func get(_ path: String, port: UInt16) throws -> String {
    let client = try TestClient(port: port)
    try client.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    return String(decoding: try client.readToEnd(), as: UTF8.self)
}

/// What a setup closure throws on purpose.
private struct SetupFailure: Error, CustomStringConvertible {
    var description: String { "no such folder, on purpose" }
}

/// An issue's words: its comments, and the error it caught.
private func text(of issue: Issue) -> String {
    (issue.comments.map(\.rawValue) + [issue.error.map { "\($0)" }].compactMap { $0 }).joined(separator: "\n")
}

/// The mock traits on tests: each test (each case of a parameterized one) gets its own mock, read as
/// `HTTPMockServer.current` or `MockServer.current`.
@Suite("Mock traits on tests", .offPool)
struct MockServerTraitTests {
    @Test("a test's stub server runs the setup closure and is the test's HTTPMockServer.current",
          .httpMockServer { server in server.stubRequest("GET", "/pets").andReturn(200).withBody("[]") })
    func stubServer() async throws {
        let server = try HTTPMockServer.current
        let answer = try get("/pets", port: server.port)
        #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("\r\n\r\n[]"), "\(answer)")
        #expect(server.hitCount("GET", "/pets") == 1)
    }

    @Test("a response script from the test bundle, as MockServer.current", .mockServer(responses: "hello-http", in: .module))
    func responseScript() async throws {
        let answer = try get("/", port: try MockServer.current.port)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK") && answer.hasSuffix("hello\n"), "\(answer)")
    }

    @Test("a bundled response script, with a setup closure that sets its files",
          .mockServer(responses: "ftp") { server in server.files = ["a.txt": Data("hi".utf8)] })
    func bundledScript() async throws {
        let server = try MockServer.current
        let client = try TestClient(port: server.port)
        #expect(try client.readLine() == "220 127.0.0.1 FTP server (MockServer) ready.")
        try client.send("SIZE a.txt\r\nQUIT\r\n")
        #expect(try client.readLine() == "213 2")
        #expect(try client.readLine() == "221 Goodbye.")
    }

    @Test("a mock-data folder of the test bundle", .httpMockServer(mockData: "VOKMockData", in: .module))
    func mockDataByName() async throws {
        let answer = try get("/v1/me", port: try HTTPMockServer.current.port)
        #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix(#"{"name":"Ada"}"#), "\(answer)")
    }

    @Test("a mock-data folder by its URL",
          .httpMockServer(mockData: Bundle.module.resourceURL!.appendingPathComponent("VOKMockData")))
    func mockDataByURL() async throws {
        let answer = try get("/v1/me", port: try HTTPMockServer.current.port)
        #expect(answer.hasSuffix(#"{"name":"Ada"}"#), "\(answer)")
    }

    @Test("the bundled endpoints file, after a stub of the setup closure",
          .httpMockServer(endpoints: "endpoints") { server in server.stubRequest("GET", "/search").andReturn(200).withBody("stubbed") })
    func endpointsByName() async throws {
        let port = try HTTPMockServer.current.port
        let config = try get("/config/7", port: port)
        #expect(config.hasPrefix("HTTP/1.1 200") && config.contains(#""version":"7""#), "\(config)")
        #expect(try get("/search?q=x", port: port).hasSuffix("stubbed"))
    }

    @Test("an endpoints file by its URL",
          .httpMockServer(endpoints: BundledResponses.url(named: "endpoints")!))
    func endpointsByURL() async throws {
        #expect(try get("/search?q=found", port: try HTTPMockServer.current.port).hasSuffix("found"))
    }

    @Test("tls: makes HTTPS with a fresh test CA, which curl trusts",
          .enabled(if: Tools.hasCurl), .httpMockServer(tls: .implicit) { server in server.stubRequest("GET", "/secure").andReturn(200).withBody("tls") })
    func https() async throws {
        let server = try HTTPMockServer.current
        let url = server.url(for: "/secure")
        #expect(url.scheme == "https")
        let ca = FileManager.default.temporaryDirectory.appendingPathComponent("trait-ca-\(UUID().uuidString).pem")
        try #require(server.server.configuration.tls?.identity.caCertificatePEM).write(to: ca, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: ca) }
        let curl = try Tools.curl(["--cacert", ca.path, url.absoluteString])
        #expect(curl.status == 0 && curl.stdout == "tls", "\(curl.stderr)")
    }

    @Test("outside every mock, current throws an error that names the trait to add")
    func currentOutside() async throws {
        #expect(throws: (any Error).self) { try HTTPMockServer.current }
        do {
            _ = try HTTPMockServer.current
        } catch {
            #expect("\(error)".contains("@Test(.httpMockServer { server in … })") && "\(error)".contains("withHTTPMockServer"), "\(error)")
        }
        do {
            _ = try MockServer.current
        } catch {
            #expect("\(error)".contains(#"@Test(.mockServer(responses: "NAME", in: .module))"#), "\(error)")
        }
    }

    @Test("withHTTPMockServer and withMockServer make their server current too, and only inside")
    func helpersBindCurrent() async throws {
        try await withHTTPMockServer { server in
            #expect(try HTTPMockServer.current === server)
            async let child = try HTTPMockServer.current
            #expect(try await child === server)
        }
        try await withMockServer(responses: "ftp") { server in
            let current = try MockServer.current
            #expect(current === server)
        }
        #expect(throws: (any Error).self) { try MockServer.current }
    }

    /// One mock per parallel test: 50 cases run at once, each with its own server, and each sees
    /// only its own requests. A mock shared by the cases (or by the test) would show the others' markers.
    @Test("50 parallel cases each get their own mock and see only their own requests",
          .httpMockServer { server in server.stubRequest("GET", "/marker/:id").andReturn(204) }, arguments: 0..<50)
    func parallel(index: Int) async throws {
        let server = try HTTPMockServer.current
        for _ in 0..<3 {
            #expect(try get("/marker/\(index)", port: server.port).hasPrefix("HTTP/1.1 204"))
        }
        let targets = server.transcript.inputs.map { $0.text.components(separatedBy: "\r\n")[0] }
        #expect(targets == Array(repeating: "GET /marker/\(index) HTTP/1.1", count: 3), "case \(index) saw \(targets)")
        #expect(server.hitCount("GET", "/marker/\(index)") == 3)
        #expect(server.stubs.map(\.hits) == [3])
    }
}

/// What the mock traits report, where: at the line of the test's `@Test`, after the body, as
/// `withHTTPMockServer` and `withMockServer` do. `.expectingIssues` wraps the mock trait's scope and
/// checks what it recorded.
@Suite("Mock trait reports", .offPool)
struct MockServerTraitReportTests {
    @Test("a request no stub answered fails the test once, at its own line",
          .expectingIssues { outcome in
              #expect(outcome.issues.count == 1 && outcome.thrown == nil, "\(outcome.issues)")
              let location = outcome.issues.first?.sourceLocation
              #expect(location == outcome.test.sourceLocation, "\(String(describing: location)) is not \(outcome.test.sourceLocation)")
              let words = outcome.issues.first.map(text(of:)) ?? ""
              #expect(words.hasPrefix("MockServer: unexpected request") && words.contains(#"server.stubRequest("GET", "/cats")"#), "\(words)")
          },
          .httpMockServer { server in server.stubRequest("GET", "/pets").andReturn(200) })
    func unexpectedRequest() async throws {
        #expect(try get("/cats", port: try HTTPMockServer.current.port).hasPrefix("HTTP/1.1 500"))
    }

    @Test("strict: a stub that answered nothing fails the test at its line",
          .expectingIssues { outcome in
              #expect(outcome.issues.map(text(of:)).map { $0.hasPrefix("MockServer: a stub answered no request (strict verification)") } == [true],
                      "\(outcome.issues)")
              #expect(outcome.issues.first?.sourceLocation == outcome.test.sourceLocation)
          },
          .httpMockServer(strict: true) { server in server.stubRequest("GET", "/never").andReturn(200) })
    func strictUnusedStub() async throws {}

    @Test("an input no response matched fails the test at its line",
          .expectingIssues { outcome in
              #expect(outcome.issues.map(text(of:)).map { $0.contains("MockServer received 1 input that no response matched:") } == [true],
                      "\(outcome.issues)")
              #expect(outcome.issues.first?.sourceLocation == outcome.test.sourceLocation)
          },
          .mockServer(responses: "hello-http", in: .module))
    func unexpectedInput() async throws {
        let server = try MockServer.current
        let client = try TestClient(port: server.port)
        try client.send("BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try client.readToEnd()
        try await server.waitForConnectionsClosed()
    }

    @Test("an error of the setup closure fails the test with the transcript, and the body does not run",
          .expectingIssues { outcome in
              #expect(outcome.issues.isEmpty, "\(outcome.issues)")
              let failure = outcome.thrown as? MockServerTestFailure
              #expect(failure?.underlying is SetupFailure && failure?.description.contains("MockServer transcript:") == true,
                      "\(String(describing: outcome.thrown))")
          },
          .httpMockServer { _ in throw SetupFailure() })
    func setupError() async throws {
        Issue.record("the body ran after its setup threw")
    }

    @Test("a failed #require is one issue, and its error comes out as it is, not as a second issue",
          .expectingIssues { outcome in
              #expect(outcome.issues.count == 1, "\(outcome.issues.map(text(of:)))")
              #expect(outcome.thrown is ExpectationFailedError, "\(String(describing: outcome.thrown))")
          },
          .httpMockServer())
    func requireFailsOnce() async throws {
        let missing: Int? = nil
        _ = try #require(missing)
    }

    @Test("a missing mock-data folder fails the test before its body, naming the folder",
          .expectingIssues { outcome in
              #expect(outcome.issues.isEmpty && "\(String(describing: outcome.thrown))".contains("NoSuchFolder"), "\(String(describing: outcome.thrown))")
          },
          .httpMockServer(mockData: "NoSuchFolder", in: .module))
    func missingMockData() async throws {
        Issue.record("the body ran without its mock data")
    }

    #if compiler(>=6.3)
    @Test("Test.cancel() in a test with a mock comes out as Swift Testing's own error, not wrapped as a failure",
          .expectingIssues { outcome in
              #expect(outcome.issues.isEmpty, "\(outcome.issues.map(text(of:)))")
              #expect(outcome.thrown != nil && !(outcome.thrown is MockServerTestFailure), "\(String(describing: outcome.thrown))")
          },
          .httpMockServer())
    func cancelled() async throws {
        try Test.cancel("cancelled on purpose: the mock trait must let Swift Testing see its cancellation")
    }
    #endif
}

/// A suite's mock: started once, shared by its tests (they run in parallel), stopped after the last.
@Suite("A mock for a whole suite", .offPool,
       .httpMockServer { server in server.stubRequest("GET", "/shared").andReturn(200).withBody("shared") })
struct SuiteMockTraitTests {
    /// The first server a test of the suite saw: each test checks that it sees the same one.
    final class FirstSeen: @unchecked Sendable {
        private let lock = NSLock()
        private var first: ObjectIdentifier?

        /// `server`'s identity when it is the first one recorded, else the first one's.
        func record(_ server: HTTPMockServer) -> ObjectIdentifier {
            lock.lock(); defer { lock.unlock() }
            if first == nil { first = ObjectIdentifier(server) }
            return first!
        }
    }

    static let firstSeen = FirstSeen()

    /// Checks that `server` is the one every test of the suite got, and that it answers the suite's stub.
    private func checkShared() throws {
        let server = try HTTPMockServer.current
        #expect(Self.firstSeen.record(server) == ObjectIdentifier(server), "a test of the suite got a server of its own")
        #expect(try get("/shared", port: server.port).hasSuffix("shared"))
    }

    @Test("the first test sees the suite's server") func first() throws { try checkShared() }
    @Test("the second test sees the same one") func second() throws { try checkShared() }
    @Test("the third test too") func third() throws { try checkShared() }

    @Test("a test's own trait replaces the suite's mock for that test", .httpMockServer())
    func ownMock() async throws {
        #expect(try HTTPMockServer.current.stubs.isEmpty)
    }
}
/// A suite's mock reports once, when the suite ends, at the `@Suite` line: here the stub no test used.
@Suite("A strict mock for a whole suite", .offPool,
       .expectingIssues { outcome in
           #expect(outcome.issues.map(text(of:)).map { $0.hasPrefix("MockServer: a stub answered no request") && $0.contains("GET /never") } == [true],
                   "\(outcome.issues.map(text(of:)))")
           #expect(outcome.issues.first?.sourceLocation == outcome.test.sourceLocation && outcome.test.isSuite)
       },
       .httpMockServer(strict: true) { server in
           server.stubRequest("GET", "/used").andReturn(200)
           server.stubRequest("GET", "/never").andReturn(200)
       })
struct StrictSuiteMockTraitTests {
    @Test("one test uses a stub of the suite's mock") func one() throws {
        #expect(try get("/used", port: try HTTPMockServer.current.port).hasPrefix("HTTP/1.1 200"))
    }

    @Test("another uses it too, and no test uses the other") func two() throws {
        #expect(try get("/used", port: try HTTPMockServer.current.port).hasPrefix("HTTP/1.1 200"))
    }
}
#endif
