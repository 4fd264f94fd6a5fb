import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import MockServerCore
import MockServerHTTP
@testable import MockServerInProcess

/// The request made ready for the mock: read from the parts it was written from, it is the request
/// the server's parser reads from its bytes, or the same refusal.
@Suite("In-process prepared request")
struct PreparedRequestTests {
    /// Every part of a request the responders see, as text.
    private static func parts(_ request: HTTPMockRequest?) -> String? {
        request.map { "\($0.method) \($0.target) \($0.version) \($0.headers.fields) \($0.raw) \($0.body) keep-alive: \($0.wantsKeepAlive)" }
    }

    private static func request(_ url: String, _ method: String = "GET", _ fields: [(String, String)] = [], body: String? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in fields { request.addValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        return request
    }

    static let requests: [(String, URLRequest)] = [
        ("a plain GET", request("http://127.0.0.1:8080/a?b=1#c")),
        ("no path, default port", request("https://example.com:443")),
        ("fields, a body", request("http://h:9/p", "POST", [("Accept", "*/*"), ("X-A", "café"), ("Content-Type", "text/plain")], body: "abc")),
        ("a lower-case method, an empty body", request("http://h/p", "put")),
        ("Connection: close", request("http://h/p", "GET", [("Connection", "close")])),
        ("the request's own Host", request("http://h/p", "GET", [("host", "other:1")])),
        ("a Content-Length that is not the body's", request("http://h/p", "POST", [("Content-Length", "2")], body: "abc")),
        ("Transfer-Encoding set by the request", request("http://h/p", "POST", [("Transfer-Encoding", "chunked")], body: "abc")),
        ("a value with spaces around it", request("http://h/p", "GET", [("X-A", "  padded ")])),
        ("CR LF and a field in a value", request("http://h/p", "GET", [("X-A", "a\r\nX-B: injected")])),
        ("LF in a value", request("http://h/p", "GET", [("X-A", "a\nb")])),
        ("a control character in a value", request("http://h/p", "GET", [("X-A", "a\u{01}b")])),
        ("a field name that is not a token", request("http://h/p", "GET", [("Bad Name", "v")])),
        ("a method that is not a token", request("http://h/p", "GE T")),
        ("a path above the root", request("http://h/a/../../x")),
        ("a Host with a slash", request("http://h/p", "GET", [("Host", "a/b")])),
    ]

    @Test("the prepared request is what the server's parser reads from its bytes", arguments: requests)
    func sameAsParsed(_ row: (String, URLRequest)) throws {
        let selector = try IOSelector.make()
        defer { selector.close() }
        let connector = LoopConnector(inbox: LoopInbox(selector: selector)) { fatalError("no connection is made") }
        let route = InProcessRoute(connector: connector, responder: { fatalError("nothing is answered") },
                                   environment: ServerEnvironment(transcript: Transcript(), logger: .disabled),
                                   authority: "127.0.0.1:8080", hosts: nil, additionalHeaders: ["X-Session": "1"], cookieStorage: nil)
        let prepared = PreparedRequest(row.1, route: route, addingStoredCookies: false)
        var parser = HTTPRequestParser()
        parser.append(prepared.bytes)
        let parsed = try? parser.next()
        #expect(Self.parts(prepared.parsed) == Self.parts(parsed), "\(row.0)")
    }
}
