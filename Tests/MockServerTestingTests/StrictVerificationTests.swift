import Foundation
import MockServerTesting
import TestSupport
import Testing

/// Strict verification: unused stubs and requests out of a declared order fail the test.
@Suite("Strict verification", .offPool)
struct StrictVerificationTests {
    /// Sends `GET|POST path` to `server` and waits for the answer.
    private func request(_ server: HTTPMockServer, _ method: String, _ path: String) throws {
        let client = try TestClient(port: server.port)
        try client.send("\(method) \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        _ = try client.readToEnd()
    }

    @Test("a stub that answered no request fails a strict test, naming it")
    func unusedStub() async throws {
        let reports = try await ReportCapture.capturing {
            try await withHTTPMockServer(strict: true) { server in
                server.stubRequest("GET", "/used").andReturn(200)
                server.stubRequest("GET", "/never").andReturn(200)
                try request(server, "GET", "/used")
            }
        }
        #expect(reports.count == 1, "\(reports)")
        let text = reports.first ?? ""
        #expect(text.hasPrefix("MockServer: a stub answered no request (strict verification)") && text.contains("\n  GET /never\n")
                && !text.contains("/used"), "\(text)")
    }

    @Test("a request out of the declared order fails a strict test, naming both requests and the order")
    func outOfOrder() async throws {
        let reports = try await ReportCapture.capturing {
            try await withHTTPMockServer(strict: true) { server in
                server.inOrder {
                    server.stubRequest("POST", "/login").andReturn(200)
                    server.stubRequest("GET", "/items").andReturn(200).withBody("[]")
                }
                try request(server, "GET", "/items")
                try request(server, "POST", "/login")
            }
        }
        #expect(reports == ["""
                MockServer: a request arrived out of the declared order (strict verification)

                  GET /items

                was answered by GET /items (answer 1) before

                  POST /login

                was answered by POST /login (answer 2), which the order puts first: POST /login, then GET /items.

                """])
    }

    @Test("every stub used, in the declared order, passes; a stub of the order used again after the next one does not")
    func inOrder() async throws {
        try await withHTTPMockServer(strict: true) { server in
            server.inOrder {
                server.stubRequest("POST", "/login").andReturn(200)
                server.stubRequest("GET", "/items").andReturn(200)
            }
            server.stubRequest("GET", "/anytime").andReturn(200)
            try request(server, "GET", "/anytime")
            try request(server, "POST", "/login")
            try request(server, "POST", "/login")
            try request(server, "GET", "/anytime")
            try request(server, "GET", "/items")
            #expect(server.strictVerificationReports.isEmpty)
            try request(server, "POST", "/login")
            #expect(server.strictVerificationReports.count == 1)
            #expect(server.strictVerificationReports.first?.contains("\n  GET /items\n\nwas answered by GET /items (answer 5) before\n\n  POST /login\n") == true,
                    "\(server.strictVerificationReports)")
            server.removeAllStubs()
            #expect(server.strictVerificationReports.isEmpty)
        }
    }

    @Test("without strict, an unused stub and an order broken are allowed")
    func notStrict() async throws {
        try await withHTTPMockServer { server in
            server.inOrder {
                server.stubRequest("POST", "/login").andReturn(200)
                server.stubRequest("GET", "/items").andReturn(200)
            }
            server.stubRequest("GET", "/never").andReturn(200)
            try request(server, "GET", "/items")
            try request(server, "POST", "/login")
            #expect(server.strictVerificationReports.count == 2)
        }
    }
}
