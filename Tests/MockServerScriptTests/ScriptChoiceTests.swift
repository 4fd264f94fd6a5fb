import Testing
import MockServerCore
import MockServerScript

/// ``PatternResponder/choose(_:session:)``: an entry whose steps were worked out when the script
/// loaded is chosen as those steps and its name; any other entry as its reply, as
/// ``PatternResponder/respond(to:session:)`` gives it.
@Suite("A pattern responder's choice: prepared steps or a reply")
struct ScriptChoiceTests {
    /// Conditions that slow what the server sends by a millisecond.
    private static var slow: NetworkConditions {
        var conditions = NetworkConditions()
        conditions.toClient.latency = .milliseconds(1)
        return conditions
    }

    /// The name and the shape of a choice, for comparison.
    private func shape(_ choice: ScriptChoice?) -> String {
        switch choice {
        case .prepared(let prepared, let response)?: "prepared \(response): \(prepared.steps.count) steps"
        case .reply(let reply)?: "reply \(reply.response ?? "-")"
        case nil: "none"
        }
    }

    @Test("constant sends, pauses, closes and faults are chosen as their steps; a substitution, a set switch or conditions as a reply")
    func preparedOrReply() throws {
        let responder = PatternResponder([
            try ResponseEntry("raw", pattern: "^GET /raw ", commands: [.send("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")]),
            try ResponseEntry("paced", pattern: "^GET /paced ", commands: [.pause(.milliseconds(5)), .send("x"), .close]),
            try ResponseEntry("switch", pattern: "^GET /switch ", commands: [.useSet("default"), .send("x")]),
            try ResponseEntry("slow", pattern: "^GET /slow ", commands: [.conditions(Self.slow), .send("x")]),
            try ResponseEntry("path", pattern: "^GET (/\\S*) ", commands: [.send("at $1")]),
        ])
        var session = ScriptSession(connectionID: 1)
        #expect(shape(responder.choose(InputUnit("GET /raw HTTP/1.1\r\n\r\n"), session: &session)) == "prepared raw: 1 steps")
        #expect(shape(responder.choose(InputUnit("GET /paced HTTP/1.1\r\n\r\n"), session: &session)) == "prepared paced: 3 steps")
        #expect(shape(responder.choose(InputUnit("GET /other HTTP/1.1\r\n\r\n"), session: &session)) == "reply path")
        #expect(shape(responder.choose(InputUnit("GET /switch HTTP/1.1\r\n\r\n"), session: &session)) == "reply switch")
        #expect(shape(responder.choose(InputUnit("GET /slow HTTP/1.1\r\n\r\n"), session: &session)) == "reply slow")
        #expect(shape(responder.choose(InputUnit("PUT /raw HTTP/1.1\r\n\r\n"), session: &session)) == "none")
        // The prepared steps are the entry's, shared: the same object at every choice.
        guard case .prepared(let first, _)? = responder.choose(InputUnit("GET /raw HTTP/1.1\r\n\r\n"), session: &session),
              case .prepared(let second, _)? = responder.choose(InputUnit("GET /raw HTTP/1.1\r\n\r\n"), session: &session) else {
            Issue.record("not prepared")
            return
        }
        #expect(first === second)
        // The reply of an entry that needs a run is the one respond(to:) gives, with its match.
        guard case .reply(let reply)? = responder.choose(InputUnit("GET /a/b HTTP/1.1\r\n\r\n"), session: &session) else {
            Issue.record("not a reply")
            return
        }
        #expect(reply.match.groups == ["/a/b"])
    }

    @Test("a fallback is chosen the same way when nothing matches")
    func fallback() throws {
        let prepared = PatternResponder([try ResponseEntry("get", pattern: "^GET ", commands: [.send("x")])],
                                        fallback: try ResponseEntry("other", pattern: ".*", commands: [.send("no\n")]))
        var session = ScriptSession(connectionID: 1)
        #expect(shape(prepared.choose(InputUnit("PUT / HTTP/1.1\r\n\r\n"), session: &session)) == "prepared other: 1 steps")
        let worked = PatternResponder([], fallback: try ResponseEntry("echo", pattern: ".*", commands: [.send("$0")]))
        #expect(shape(worked.choose(InputUnit("PUT / HTTP/1.1\r\n\r\n"), session: &session)) == "reply echo")
    }

    @Test("a connection switched to another set is answered from that set")
    func switchedSet() throws {
        let script = try ResponseScript(json: """
            {"responses": {"a": {"pattern": "^X", "commands": ["from a"]}, "b": {"pattern": "^X", "commands": ["from b"]}},
             "sets": {"default": {"responses": ["a"]}, "other": {"responses": ["b"]}}}
            """, vocabulary: .shared)
        let responder = try PatternResponder(script: script)
        var session = ScriptSession(connectionID: 1)
        #expect(shape(responder.choose(InputUnit("X"), session: &session)) == "prepared a: 1 steps")
        session.responseSet = "other"
        #expect(shape(responder.choose(InputUnit("X"), session: &session)) == "prepared b: 1 steps")
    }
}
