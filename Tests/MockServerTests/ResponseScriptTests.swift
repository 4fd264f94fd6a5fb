import Foundation
import Testing
import MockServer
import MockServerCore
import MockServerHTTP
import MockServerHTTPScript
import MockServerScript
import MockServerWebDAV
import MockServerFTP
import TestSupport

@Suite("Response files")
struct ResponseScriptTests {
    private func load(_ json: String) throws(ResponseFileError) -> ResponseScript {
        try ResponseScript(json: json, file: "test.json")
    }

    /// Loads `json`, expecting a `ResponseFileError`, and returns it.
    private func failure(_ json: String) -> ResponseFileError? {
        do {
            _ = try load(json)
            return nil
        } catch {
            return error
        }
    }

    private let context = SubstitutionContext(address: "127.0.0.1", serverName: "S", port: 21, protocolValues: ScriptSettings([FTPDataPort(port: 1025)]), data: [1, 2, 3],
                                              protocolVariables: ScriptVocabulary.standard.variables)

    /// The commands of a reply as text: what they send, and `<…>` for what they do.
    private func describe(_ commands: [ScriptCommand], _ match: ScriptRun.Match) -> String {
        func text(_ template: ResponseTemplate) -> String {
            String(decoding: template.render(input: match.input, groups: match.groups, context: context), as: UTF8.self)
        }
        return commands.map { command -> String in
            switch command {
            case .send(let template): text(template)
            case .sendBytes(let bytes): String(decoding: bytes, as: UTF8.self)
            case .sendData: "<data>"
            case .pause(let duration): "<pause \(duration)>"
            case .close: "<close>"
            case .useSet(let name): "<set \(name)>"
            case .selectFile(let template, let otherwise, _): "<file \(text(template)) else \(otherwise.map { describe($0, match) } ?? "-")>"
            case .saveBody(let template): "<save \(text(template))>"
            case .fault(let fault): "<\(fault)>"
            case .conditions(let conditions): "<conditions \(conditions.map { "\($0.toClient.latency)" } ?? "none")>"
            case .makeFolder(let template, let otherwise): "<mkdir \(text(template)) else \(otherwise.map { describe($0, match) } ?? "-")>"
            case .copyFile(let source, let destination, let move, _): "<\(move ? "move" : "copy") \(text(source)) to \(text(destination))>"
            case .deleteFile(let template, let otherwise): "<delete \(text(template)) else \(otherwise.map { describe($0, match) } ?? "-")>"
            case .protocolCommand(let command):
                switch command.base {
                case let ftp as FTPScriptCommand:
                    switch ftp {
                    case .openPassive: "<passive>"
                    case .connectActive(let template, _): "<active \(text(template))>"
                    case .transfer(let transfer): transfer.rawValue
                    case .ftp: "<ftp>"
                    case .refuseData: "<refuseData>"
                    case .delayData(let duration): "<delayData(\(duration))>"
                    case .protect(let level, _): "<protect \(text(level))>"
                    }
                case let http as HTTPScriptCommand:
                    switch http {
                    case .response(let template):
                        String(decoding: template.render(input: match.input, groups: match.groups, context: context), as: UTF8.self)
                    case .continueRequest: "<continue>"
                    case .streamFault(let fault, _): "<\(fault)>"
                    }
                case let webdav as WebDAVScriptCommand: webdav == .propfind ? "<propfind>" : "<webdav>"
                default: "<\(command)>"
                }
            }
        }.joined()
    }

    private func reply(_ responder: PatternResponder, _ line: String, session: inout ScriptSession) -> String? {
        responder.respond(to: InputUnit(line), session: &session, context: context).map { describe($0.commands, $0.match) }
    }

    @Test("a file in the original format loads, trailing commas and all")
    func originalFormat() throws {
        let script = try ResponseScript(contentsOf: Fixtures.url("original-style.json"))
        #expect(script.scheme == "ftp")
        #expect(script.setNames == ["default", "bad login"])
        let responder = try PatternResponder(script: script)
        var session = ScriptSession(connectionID: 1)
        #expect(reply(responder, "USER bob", session: &session) == "331 User bob accepted, provide password.\r\n")
        #expect(reply(responder, "RETR a/b.txt", session: &session) == "150 Opening BINARY mode data connection for 'a/b.txt' (3 bytes).\r\n<pause 0.1 seconds>226 Transfer complete.\r\n")
        #expect(reply(responder, "QUIT", session: &session) == "221 Goodbye.\r\n<close>")
        #expect(reply(responder, "PASV", session: &session) == "227 Entering Passive Mode (127,0,0,1,4,1)\r\n")
        #expect((responder.connected(session: &session, context: context).map { describe($0.commands, $0.match) } ?? "") == "220 127.0.0.1 FTP server (S) ready.\r\n")
    }

    @Test("a set naming a missing response loads, fails when chosen, and fails validation with its location")
    func missingResponse() throws {
        let script = try ResponseScript(contentsOf: Fixtures.url("original-style.json"))
        let expected = ResponseFileError.Problem.missingResponse(set: "bad login", response: "unknown")
        #expect(throws: ResponseFileError.self) { try PatternResponder(script: script, set: "bad login") }
        do {
            try script.validate()
            Issue.record("validate() should throw")
        } catch {
            #expect(error.problem == expected)
            #expect(error.location == JSONNode.Location(line: 12, column: 62))
            // The fixture is the test bundle's copy: the message names its source too.
            #expect(error.description.contains("original-style.json:12:62: set \"bad login\" names the response \"unknown\", which the file does not define"
                                               + " (a copy of \(Tools.repositoryRoot.path)/Tests/MockServerTests/Fixtures/original-style.json:12:62, the file to edit)"),
                    "\(error)")
        }
    }

    @Test("an unknown set lists the sets there are")
    func unknownSet() throws {
        let script = try ResponseScript(contentsOf: Fixtures.url("original-style.json"))
        do {
            _ = try PatternResponder(script: script, set: "nope")
            Issue.record("should throw")
        } catch {
            #expect(error.problem == .unknownSet(name: "nope", available: ["default", "bad login"]))
            #expect(error.message == "there is no set \"nope\" (sets: \"default\", \"bad login\")")
        }
    }

    @Test("without sets, every response forms the default set in file order")
    func implicitDefaultSet() throws {
        let script = try load(#"{"responses": {"b": {"pattern": "B", "commands": ["b"]}, "a": {"pattern": "A", "commands": ["a"]}}}"#)
        #expect(script.setNames == ["default"])
        #expect(try script.set(named: "default").entries.map(\.name) == ["b", "a"])
    }

    @Test("the first matching response wins, in set order")
    func firstMatchWins() throws {
        let script = try load("""
            {"sets": {"default": {"responses": ["specific", "general"]}, "reversed": {"responses": ["general", "specific"]}},
             "responses": {"general": {"pattern": "^(\\\\w+)", "commands": ["general $1"]},
                           "specific": {"pattern": "^HELLO", "commands": ["specific"]}}}
            """)
        var session = ScriptSession(connectionID: 1)
        #expect(reply(try PatternResponder(script: script), "HELLO", session: &session) == "specific")
        #expect(reply(try PatternResponder(script: script, set: "reversed"), "HELLO", session: &session) == "general HELLO")
    }

    @Test("a set command switches one connection; the responder switches new ones")
    func setSwitching() throws {
        let script = try load("""
            {"sets": {"default": {"responses": ["login ok", "to data"]},
                      "data": {"responses": ["end", "swallow"]},
                      "refuse": {"responses": ["login bad"]}},
             "responses": {"login ok": {"pattern": "^LOGIN", "commands": ["OK"]},
                           "login bad": {"pattern": "^LOGIN", "commands": ["NO"]},
                           "to data": {"pattern": "^DATA", "commands": ["354 go", {"set": "data"}]},
                           "end": {"pattern": "^\\\\.$", "commands": ["250 queued", {"set": "default"}]},
                           "swallow": {"pattern": ".*", "commands": []}}}
            """)
        let responder = try PatternResponder(script: script)
        var session = ScriptSession(connectionID: 1)
        #expect(reply(responder, "DATA", session: &session) == "354 go<set data>")
        session.responseSet = "data"  // as the connection does when it carries out the action
        #expect(reply(responder, "LOGIN", session: &session) == "")
        #expect(reply(responder, ".", session: &session) == "250 queued<set default>")
        var other = ScriptSession(connectionID: 2)
        #expect(reply(try responder.usingSet("refuse"), "LOGIN", session: &other) == "NO")
    }

    @Test("a fallback answers what nothing else matches")
    func fallback() throws {
        let script = try load("""
            {"sets": {"default": {"responses": ["noop"], "fallback": "other"}},
             "responses": {"noop": {"pattern": "^NOOP", "commands": ["200"]}, "other": {"pattern": "«initial»", "commands": ["502 $0"]}}}
            """)
        var session = ScriptSession(connectionID: 1)
        let result = try #require(try PatternResponder(script: script).respond(to: InputUnit("XYZ 1"), session: &session, context: context))
        #expect(describe(result.commands, result.match) == "502 XYZ 1")
        #expect(result.response == "other")
    }

    @Test("raw bytes as hex or base64, pauses as numbers or objects, data at the top level")
    func extensions() throws {
        let script = try load("""
            {"data": {"base64": "AAEC"},
             "responses": {"r": {"pattern": "R", "commands": [{"hex": "0d 0A ff"}, {"base64": "aGk="}, 0.25, {"pause": 1}, {"send": "$size"}, "«data»"]}}}
            """)
        #expect(script.data == [0, 1, 2])
        let entry = try script.set(named: "default").entries[0]
        #expect(entry.commands == [.sendBytes([0x0D, 0x0A, 0xFF]), .sendBytes(Array("hi".utf8)), .pause(.milliseconds(250)), .pause(.seconds(1)), .send("$size"), .sendData])
    }

    @Test("FTP transfer commands and their guards load")
    func transferCommands() throws {
        let script = try load("""
            {"responses": {"retr": {"pattern": "^RETR (.+)", "commands": [
                {"file": "$1", "otherwise": ["550 $1\\r\\n"]}, "«passive»", {"active": "$1"}, "«download»", "«download-partial»",
                "«upload»", "«list»", "«nlst»"]}}}
            """)
        var session = ScriptSession(connectionID: 1)
        #expect(reply(try PatternResponder(script: script), "RETR a.txt", session: &session)
                == "<file a.txt else 550 a.txt\r\n><passive><active a.txt>«download»«download-partial»«upload»«list»«nlst»")
        #expect(failure(#"{"responses": {"r": {"pattern": "x", "commands": [{"set": "default", "otherwise": []}]}}}"#)?.problem
                == .unknownKey(path: "responses.r.commands[0]", key: "otherwise", known: ["set"]))
    }

    @Test("JSON syntax errors give line and column", arguments: [
        ("{\n  \"responses\": {\n    \"a\": {\"pattern\": \"x\" \"commands\": []}\n  }\n}", 3, 26, "expected ',' or '}' but found '\"'"),
        ("{\"responses\": [1, 2,, 3]}", 1, 21, "expected a value but found ','"),
        ("{\"responses\": {}", 1, 17, "the file ended inside an object that starts at 1:1"),
        ("{\"responses\": \"a\nb\"}", 1, 17, "a string may not span lines"),
        ("{\"responses\": {}} x", 1, 19, "unexpected 'x' after the top-level value"),
        ("{\"responses\": 01}", 1, 15, "a number may not start with 0"),
        ("{\"responses\": \"\\q\"}", 1, 16, "unknown escape \\q"),
        ("", 1, 1, "expected a value but the file ended"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key \"a\" (first at 1:2)"),
    ])
    func syntaxErrors(json: String, line: Int, column: Int, message: String) throws {
        let error = try #require(failure(json))
        guard case .syntax(let text) = error.problem else {
            Issue.record("expected a syntax error, got \(error)")
            return
        }
        #expect(text.hasPrefix(message), "\(text)")
        #expect(error.location == JSONNode.Location(line: line, column: column))
        #expect(error.description.hasPrefix("test.json:\(line):\(column): JSON syntax error: "))
    }

    @Test("columns count characters, not bytes")
    func columnsCountCharacters() throws {
        let error = try #require(failure("{\"é€\": x}"))
        #expect(error.location == JSONNode.Location(line: 1, column: 8))
    }

    @Test("a file that is not UTF-8 is refused with the place of the first bad byte")
    func notUTF8() throws {
        do {
            _ = try ResponseScript(json: Array("{\n \"responses\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8), file: "x.json")
            Issue.record("should throw")
        } catch {
            guard case .notUTF8 = error.problem else { Issue.record("wrong problem \(error)"); return }
            #expect(error.location == JSONNode.Location(line: 2, column: 16))
        }
    }

    @Test("each semantic error names its culprit and location", arguments: [
        (#"{"responses": {"r": {"pattern": "(", "commands": []}}}"#, "invalidPattern", 1, 33),
        (#"{"responses": {"r": {"pattern": "x", "commands": "no"}}}"#, "wrongType", 1, 50),
        (#"{"responses": {"r": {"pattern": "x", "commands": [true]}}}"#, "wrongType", 1, 51),
        (#"{"responses": {"r": {"pattern": 3, "commands": []}}}"#, "wrongType", 1, 33),
        (#"{"responses": {"r": {"pattern": "x", "commands": ["«closed»"]}}}"#, "unknownToken", 1, 51),
        (#"{"responses": {"r": {"pattern": "«first»", "commands": []}}}"#, "unknownToken", 1, 33),
        (#"{"responses": {"r": {"pattern": "x", "commands": [-1]}}}"#, "invalidValue", 1, 51),
        (#"{"responses": {"r": {"pattern": "x", "commands": [100000]}}}"#, "invalidValue", 1, 51),
        (#"{"responses": {"r": {"pattern": "x", "command": []}}}"#, "unknownKey", 1, 38),
        (#"{"responses": {"r": {"commands": []}}}"#, "missingKey", 1, 21),
        (#"{"sets": {}}"#, "missingKey", 1, 1),
        (#"{"responses": {}, "sets": {"s": {"responses": []}}}"#, "emptySet", 1, 47),
        (#"{"responses": {"r": {"pattern": "x", "commands": [{"set": "nowhere"}]}}}"#, "unknownSet", 1, 59),
        (#"{"responses": {"r": {"pattern": "x", "commands": [{"hex": "0g"}]}}}"#, "invalidValue", 1, 59),
        (#"{"responses": {"r": {"pattern": "x", "commands": [{"send": "a", "pause": 1}]}}}"#, "invalidValue", 1, 51),
        (#"{"responses": {"r": {"pattern": "x", "commands": [{"sleep": 1}]}}}"#, "unknownKey", 1, 52),
        (#"{"responses": [], "scheme": "ftp"}"#, "wrongType", 1, 15),
        (#"[1]"#, "wrongType", 1, 1),
    ])
    func semanticErrors(json: String, kind: String, line: Int, column: Int) throws {
        let error = try #require(failure(json))
        #expect(String(describing: error.problem).hasPrefix(kind), "\(error)")
        #expect(error.location == JSONNode.Location(line: line, column: column), "\(error)")
    }

    @Test("an invalid pattern's message names the response and the regex engine's reason")
    func invalidPatternMessage() throws {
        do {
            _ = try ResponseScript(contentsOf: Fixtures.url("bad-pattern.json"))
            Issue.record("should throw")
        } catch {
            guard case .invalidPattern(let response, let pattern, let reason) = error.problem else { Issue.record("\(error)"); return }
            #expect(response == "broken")
            #expect(pattern == "^RETR (unclosed")
            #expect(!reason.isEmpty)
            #expect(error.location == JSONNode.Location(line: 4, column: 32))
        }
    }

    @Test("a missing file is reported as unreadable with its path")
    func unreadable() {
        do {
            _ = try ResponseScript(contentsOf: URL(fileURLWithPath: "/nonexistent/x.json"))
            Issue.record("should throw")
        } catch {
            guard case .unreadable = error.problem else { Issue.record("\(error)"); return }
            #expect(error.file == "/nonexistent/x.json")
        }
    }
}
