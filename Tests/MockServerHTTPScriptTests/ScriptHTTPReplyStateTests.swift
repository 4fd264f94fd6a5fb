import Foundation
import Testing
import TestSupport
import MockServer
import MockServerCore
import MockServerHTTP
import MockServerHTTPScript
import MockServerScript

/// What an HTTP script reply reads of its server and connection: the server's responder as it was
/// prepared when set (a script's ``PatternResponder`` known without a cast at each request), a
/// constant reply worked out with its entry, and substitution values that each request updates in
/// the connection's own copy.
@Suite("An HTTP script reply's state", .offPool)
struct ScriptHTTPReplyStateTests {
    /// A responder written in code: a response of the size of the data its context holds.
    struct SizeResponder: ScriptResponder {
        func respond(to input: InputUnit, session: inout ScriptSession, context: SubstitutionContext) -> ScriptReply? {
            ScriptReply(commands: [.httpResponse(HTTPResponseTemplate(body: .bytes(Array("code \(context.data.count)\n".utf8))))],
                        match: ScriptRun.Match(input: input))
        }
    }

    @Test("a server's responder is prepared once: a script's PatternResponder answers without values; another responder is not one")
    func serverResponder() throws {
        let patterns = PatternResponder([try ResponseEntry("get", pattern: "^GET ", commands: [.send("x")])])
        var session = ScriptSession(connectionID: 1)
        let prepared = ServerResponder(patterns)
        #expect(prepared.isPatternResponder)
        #expect(prepared.respond(to: InputUnit("GET / HTTP/1.1"), session: &session)?.response == "get")
        #expect(prepared.respond(to: InputUnit("PUT / HTTP/1.1"), session: &session) == nil)
        let own = ServerResponder(SizeResponder())
        #expect(!own.isPatternResponder)
        #expect(own.respond(to: InputUnit("GET / HTTP/1.1"), session: &session) == nil)
    }

    @Test("an entry's constant reply is worked out when the entry is made, in HTTP's output, and its replies carry it")
    func preparedWithEntry() throws {
        let fixed = HTTPResponseTemplate(body: .text("ok"))
        let entry = try ResponseEntry("fixed", pattern: "^GET ", commands: [.pause(.milliseconds(5)), .httpResponse(fixed), .close])
        let prepared = try #require(entry.constantOutputSteps as? ConstantReplySteps<HTTPReplyOutput>)
        #expect(prepared.steps.count == 3)
        if case .output(.response(let response)) = prepared.steps[1] { #expect(response.body == Array("ok".utf8)) } else { Issue.record("not a response: \(prepared.steps[1])") }
        var session = ScriptSession(connectionID: 1)
        let reply = PatternResponder([entry]).respond(to: InputUnit("GET / HTTP/1.1"), session: &session)
        #expect(reply?.constantOutputSteps === prepared)
        // Worked out per request, or covered by the plain steps of commands without output: none.
        #expect(try ResponseEntry("path", pattern: "^GET ", commands: [.httpResponse(HTTPResponseTemplate(body: .text("at $path")))]).constantOutputSteps == nil)
        #expect(try ResponseEntry("plain", pattern: "^GET ", commands: [.send("x"), .close]).constantOutputSteps == nil)
        #expect(try ResponseEntry("set", pattern: "^GET ", commands: [.useSet("other"), .httpResponse(fixed)]).constantOutputSteps == nil)
    }

    @Test("on one keep-alive connection, each request reads the server's responder and data as they are then")
    func responderAndDataPerRequest() throws {
        let script = try ResponseScript(json: """
            {"scheme": "http", "responses": {
                "fixed": {"pattern": "^GET /fixed ", "commands": [{"response": {"body": "ok\\n"}}]},
                "size": {"pattern": "^GET /size ", "commands": [{"response": {"body": "script $size\\n"}}]}}}
            """)
        let server = try MockServer(script: script)
        try server.start()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        func get(_ path: String) throws -> String {
            try client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            var head = ""
            while case let line = try client.readLine(), !line.isEmpty { head += line + "\n" }
            let length = Int(head.split(separator: "\n").first { $0.hasPrefix("Content-Length: ") }?.dropFirst(16) ?? "0") ?? 0
            return String(decoding: try client.read(count: length), as: UTF8.self)
        }
        server.data = Data("abc".utf8)
        #expect(try get("/fixed") == "ok\n")
        #expect(try get("/size") == "script 3\n")
        server.data = Data("abcdefg".utf8)
        #expect(try get("/size") == "script 7\n")
        server.responder = SizeResponder()
        #expect(try get("/any") == "code 7\n")
        server.data = Data()
        #expect(try get("/any") == "code 0\n")
        server.responder = try PatternResponder(script: script)
        server.data = Data("ab".utf8)
        #expect(try get("/size") == "script 2\n")
    }
}
