import Foundation
import Testing
import TestSupport
import MockServer

/// `HEAD` on a path that only a `GET` stub or endpoint answers gets that answer's status and
/// headers, `Content-Length` included, and no body (RFC 9110 §9.3.2); an explicit `HEAD` stub wins.
@Suite("HEAD answered by a GET stub or endpoint", .offPool)
struct HeadFallbackTests {
    private func start() async throws -> HTTPMockServer {
        let server = HTTPMockServer()
        try server.addEndpoints(json: Array("""
            {"endpoints": [
                {"api": "get /file/:name", "response": {"status": 201, "headers": {"X-Name": "${param:name}"}, "body": "file ${param:name}"}},
                {"api": "get /chunks", "response": {"chunks": [{"data": "first\\n"}, {"data": "second\\n", "delay": 0.01}]}}
            ]}
            """.utf8))
        server.stubRequest("GET", "/x").andReturn(200).withBody("hello")
        server.stubRequest("GET", "/both").andReturn(200).withBody("from GET")
        server.stubRequest("HEAD", "/both").andReturn(204).withHeaders(["X-From": "HEAD"])
        _ = server.add(.GET, "/handler") { _, _ in Stub.Response(status: 202, headers: ["X-Handler": "yes"], body: Array("computed".utf8)) }
        server.stubRequest("POST", "/post-only").andReturn(201).withBody("posted")
        try await server.start()
        return server
    }

    @Test("curl -I: the GET's status and headers with its Content-Length, an explicit HEAD stub first, no GET no answer",
          .enabled(if: Tools.hasCurl))
    func curl() async throws {
        let server = try await start()
        defer { server.stop() }
        func head(_ path: String) throws -> String {
            let result = try Tools.curl(["-I", "http://127.0.0.1:\(server.port)\(path)"])
            #expect(result.status == 0, "\(path): \(result.stderr)")
            return result.stdout
        }
        let stub = try head("/x")
        #expect(stub.hasPrefix("HTTP/1.1 200 "), "\(stub)")
        #expect(stub.contains("Content-Length: 5\r\n"), "\(stub)")
        let endpoint = try head("/file/a.txt")
        #expect(endpoint.hasPrefix("HTTP/1.1 201 "), "\(endpoint)")
        #expect(endpoint.contains("X-Name: a.txt\r\n") && endpoint.contains("Content-Length: 10\r\n"), "\(endpoint)")
        let handler = try head("/handler")
        #expect(handler.hasPrefix("HTTP/1.1 202 ") && handler.contains("X-Handler: yes\r\n") && handler.contains("Content-Length: 8\r\n"), "\(handler)")
        let explicit = try head("/both")
        #expect(explicit.hasPrefix("HTTP/1.1 204 ") && explicit.contains("X-From: HEAD\r\n"), "\(explicit)")
        let postOnly = try head("/post-only")
        #expect(postOnly.hasPrefix("HTTP/1.1 500 "), "\(postOnly)")
        #expect(server.unexpectedRequests.count == 1)
    }

    @Test("a raw socket: HEAD answers carry no body bytes, so the next request on the connection is read and answered")
    func keepAlive() async throws {
        let server = try await start()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        func head(_ path: String) throws -> [String] {
            try client.send("HEAD \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            var lines: [String] = []
            while true {
                let line = try client.readLine()
                if line.isEmpty { return lines }
                lines.append(line)
            }
        }
        let stub = try head("/x")
        #expect(stub.first == "HTTP/1.1 200 OK" && stub.contains("Content-Length: 5"), "\(stub)")
        let endpoint = try head("/file/b")
        #expect(endpoint.first == "HTTP/1.1 201 Created" && endpoint.contains("Content-Length: 6"), "\(endpoint)")
        // A streamed GET: the head says chunked, and none of its chunks follow.
        let streamed = try head("/chunks")
        #expect(streamed.first == "HTTP/1.1 200 OK" && streamed.contains("Transfer-Encoding: chunked"), "\(streamed)")
        let handler = try head("/handler")
        #expect(handler.first == "HTTP/1.1 202 Accepted" && handler.contains("Content-Length: 8"), "\(handler)")
        // Had any body bytes been sent, this GET's status line would not come next.
        try client.send("GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let rest = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(rest.hasPrefix("HTTP/1.1 200 OK\r\n") && rest.hasSuffix("\r\n\r\nhello"), "\(rest)")
        #expect(server.unexpectedRequests.isEmpty)
    }
}
