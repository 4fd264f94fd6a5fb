import Foundation
import MockServer
import MockServerTesting
import TestSupport
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
        let client = try TestClient(port: server.port)
        try client.send("BREW /coffee HTCPCP/1.0\r\n\r\n")
        _ = try client.readToEnd()
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
