import Foundation
import MockServer
import MockServerTesting
import TestSupport
import Testing
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The XCTest helpers at work (the README's own example is in Tests/ReadmeSnippets).
final class XCTestExamples: MockServerTestCase {
    func testHTTPFromTheTestBundle() async throws {
        try setUpServer(responses: "hello-http", bundle: .module)
        let (body, response) = try await URLSession.shared.data(from: url(for: "/x"))
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertEqual(body, Data("hello\n".utf8))
        XCTAssertEqual(url(for: "/x").scheme, "http")
    }

    func testUnexpectedInputCanBeAllowed() async throws {
        failsOnUnexpectedInput = false
        let server = try setUpServer(responses: "hello-http", bundle: .module)
        let port = server.port
        try await offPool {
            let client = try TestClient(port: port)
            try client.send("BREW /coffee HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try client.readToEnd()
        }
        try await server.waitForConnectionsClosed()
        XCTAssertEqual(server.transcript.unmatched.count, 1)
    }

    func testReportsGoToTheLineThatStartedTheServer() throws {
        try setUpServer(responses: "ftp"); let expectedLine: UInt = #line
        let site = try XCTUnwrap(serverCallSite)
        XCTAssertEqual(site.line, expectedLine)
        XCTAssertEqual("\(site.file)", #filePath)
    }

    func testMissingResponseFileIsNamed() {
        XCTAssertThrowsError(try setUpServer(responses: "no-such-script")) { error in
            XCTAssertTrue("\(error)".contains("no response script named \"no-such-script\""), "\(error)")
            XCTAssertTrue("\(error)".contains("pass in: .module"), "\(error)")
        }
    }
}

/// `MockServerTestCase` with `isStrict`: what its stub server's test fails for, captured instead of
/// failing (XCTest on Linux has no `XCTExpectFailure`), and checked in `tearDown`, which runs after
/// the teardown blocks that report.
final class StrictXCTestExamples: MockServerTestCase {
    override var isStrict: Bool { true }
    private var captured: [String] = []
    private var expected: [String] = []

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        captured.append(description)
    }

    override func tearDown() {
        // Reported here for real, if what was captured is not what the test expects.
        let unmet = expected.filter { wanted in !captured.contains { $0.contains(wanted) } }
        let extra = captured.filter { failure in !expected.contains { failure.contains($0) } }
        if !unmet.isEmpty || !extra.isEmpty {
            super.recordFailure(withDescription: "strict reports: expected \(expected), got \(captured)", inFile: #filePath, atLine: #line, expected: true)
        }
        super.tearDown()
    }

    func testStrictFailsForAnUnusedStubAndAnOrderBroken() async throws {
        let server = try await setUpHTTPServer()
        server.inOrder {
            server.stubRequest("POST", "/login").andReturn(200)
            server.stubRequest("GET", "/items").andReturn(200)
        }
        server.stubRequest("GET", "/never").andReturn(200)
        try send([("GET", "/items"), ("POST", "/login")], to: server)
        expected = ["a stub answered no request (strict verification)\n\n  GET /never\n",
                    "a request arrived out of the declared order (strict verification)\n\n  GET /items\n"]
    }

    func testStrictPassesWhenAllIsUsedInOrder() async throws {
        let server = try await setUpHTTPServer()
        server.inOrder {
            server.stubRequest("POST", "/login").andReturn(200)
            server.stubRequest("GET", "/items").andReturn(200)
        }
        try send([("POST", "/login"), ("GET", "/items")], to: server)
    }

    /// Makes each request on a connection of its own and reads its answer.
    private func send(_ requests: [(method: String, path: String)], to server: HTTPMockServer) throws {
        for (method, path) in requests {
            let client = try TestClient(port: server.port)
            try client.send("\(method) \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            _ = try client.readToEnd()
        }
    }
}
