import Foundation
import Testing
import MockServerCore
import MockServerHTTP
@testable import MockServerInProcess

/// What a plain answer hands the client when the serializer says what a client reads is what a
/// client reads from the same bytes.
@Suite("In-process plain answer: the known response")
struct InProcessPlainAnswerTests {
    private static let url = URL(string: "http://mock.test/x")!

    private func request(_ method: String, version: String = "HTTP/1.1") throws -> HTTPMockRequest {
        var parser = HTTPRequestParser()
        parser.append(Array("\(method) /x \(version)\r\nHost: mock.test\r\n\r\n".utf8))
        return try #require(try parser.next())
    }

    static let responses: [HTTPMockResponse] = [
        HTTPMockResponse(status: 200, body: Array("ok\n".utf8)),
        HTTPMockResponse(status: 201, reason: "Made  It ", headers: ["X-Space": "  padded\t", "Content-Type": "text/plain"], body: Array("{}".utf8)),
        HTTPMockResponse(status: 200, headers: HTTPHeaderFields([.init(name: "X-Twice", value: "a"), .init(name: "Content-Type", value: "text/plain"),
                                                            .init(name: "X-Twice", value: " b "), .init(name: "x-twice", value: "c")]),
                         body: Array("abc".utf8)),
        HTTPMockResponse(status: 200, headers: ["Set-Cookie": "a=1; Path=/"], body: Array("c".utf8)),
        HTTPMockResponse(status: 204),
        HTTPMockResponse(status: 304, headers: ["ETag": "\"1\""]),
        HTTPMockResponse(status: 302, headers: ["X-Not-Location": "/y"]),
        HTTPMockResponse(status: 404, reason: "", body: Array("gone".utf8)),
        HTTPMockResponse(status: 500, headers: ["Content-Length": " 4"], body: Array("oops".utf8)),
        HTTPMockResponse(status: 200, headers: ["Connection": "close"], body: [0xFF, 0x00]),
        HTTPMockResponse(status: 599, headers: ["X-Empty": ""]),
    ]

    @Test("the known response gives what the bytes read back give", arguments: responses)
    func knownIsReadBack(response: HTTPMockResponse) throws {
        for request in [try request("GET"), try request("HEAD"), try request("GET", version: "HTTP/1.0")] {
            let known = try #require(InProcessPlainAnswer(HTTPReply(response), to: request))
            let bytes = HTTPResponseSerializer.serialize(response, for: request).bytes
            // Two pieces: never known, always read back as a client reads them.
            let readBack = try #require(InProcessPlainAnswer(HTTPReply(steps: [.send(Array(bytes.prefix(5))), .send(Array(bytes.dropFirst(5)))]), to: request))
            #expect(known.pieces.joined().elementsEqual(bytes))
            let given = try #require(known.response(toMethod: request.method, from: Self.url), "\(response.status) \(request.method)")
            let read = try #require(readBack.response(toMethod: request.method, from: Self.url), "\(response.status) \(request.method)")
            #expect(given.status == read.status)
            #expect(given.version == read.version)
            #expect(given.fields == read.fields, "\(response.status) \(request.method) \(request.version)")
            #expect(given.headers.contains("Set-Cookie") == read.headers.contains("Set-Cookie"))
            #expect(given.body == read.body)
        }
    }

    @Test("a redirect with a Location is left to the exchange, known or read back")
    func redirect() throws {
        let get = try request("GET")
        let response = HTTPMockResponse(status: 307, headers: ["Location": " /y "])
        let known = try #require(InProcessPlainAnswer(HTTPReply(response), to: get))
        #expect(known.response(toMethod: "GET", from: Self.url) == nil)
        let bytes = HTTPResponseSerializer.serialize(response, for: get).bytes
        let readBack = try #require(InProcessPlainAnswer(HTTPReply(steps: [.send(bytes), .send([])]), to: get))
        #expect(readBack.response(toMethod: "GET", from: Self.url) == nil)
    }
}
