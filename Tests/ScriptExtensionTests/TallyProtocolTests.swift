import Foundation
import MockServer
import Testing
import TestSupport

// A small line protocol of its own, added through the extension point alone: "TALLY" scripts may
// use `{"shout": "text"}` (the text in capitals) and `«tally»` (how many lines this connection has
// sent), and the standard vocabulary knows neither.

/// `{"shout": "…"}`: sends the rendered text in capitals.
struct ShoutCommand: ProtocolCommand {
    let text: ResponseTemplate

    var runsWhenReached: Bool { false }

    func run(_ match: ScriptRun.Match, in reply: ScriptRun) -> ScriptRun.Outcome<Never> {
        let rendered = String(decoding: reply.render(text, match: match), as: UTF8.self)
        return .continue([.send(Array(rendered.uppercased().utf8))])
    }
}

/// `«tally»`: counts this connection's tallies and sends the count.
struct TallyCommand: ProtocolCommand {
    func run(_ match: ScriptRun.Match, in reply: ScriptRun) -> ScriptRun.Outcome<Never> {
        let count = reply.storage.state(Tally.self) { Tally() }.increment()
        return .continue([.send(Array("TALLY \(count)\r\n".utf8))])
    }
}

/// One connection's count.
///
/// `@unchecked Sendable`: `count` is read and written only while `lock` is held.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }
}

struct TallyProtocol: ScriptProtocol {
    let name = "TALLY"
    let schemes: Set<String> = ["tally"]
    let tokens = ["«tally»"]
    let keys = ["shout"]
    /// `$hexport`: the server's port in hexadecimal.
    let variables = [ScriptProtocolVariable("hexport") { String($0.port, radix: 16) }]

    func command(token: String, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        .command(TallyCommand())
    }

    func command(key: String, object: ScriptDecoding.CommandObject, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        .command(ShoutCommand(text: ResponseTemplate(try decoding.string(object.command.value, path: "\(decoding.path).\(key)"))))
    }
}

@Suite("A protocol's own commands through the extension point", .offPool)
struct TallyProtocolTests {
    static let script = """
        {
          "scheme": "tally",
          "responses": {
            "hello": { "pattern": "«initial»", "commands": [{"shout": "hello from $server\\r\\n"}] },
            "count": { "pattern": "^COUNT$", "commands": ["«tally»"] },
            "port":  { "pattern": "^PORT$", "commands": ["port $hexport\\r\\n"] },
            "echo":  { "pattern": "^ECHO (.*)$", "commands": [{"shout": "$1\\r\\n"}] },
            "bye":   { "pattern": "^BYE$", "commands": ["bye\\r\\n", "«close»"] }
          }
        }
        """

    @Test("a script using the protocol's commands loads and answers Python's socket client")
    func servesARealClient() throws {
        let script = try ResponseScript(json: Self.script, file: "tally.json", vocabulary: .standard.adding(TallyProtocol()))
        let server = try MockServer(script: script)
        try server.start()
        defer { server.stop() }
        let result = try Tools.pythonSocket(port: server.port, """
            print(line())
            for text in ["COUNT", "ECHO quiet please", "COUNT", "PORT", "COUNT", "BYE"]:
                f.write((text + "\\r\\n").encode()); f.flush()
                print(line())
            print(repr(f.read()))
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n") == ["HELLO FROM MOCKSERVER", "TALLY 1", "QUIET PLEASE", "TALLY 2", "port \(String(server.port, radix: 16))",
                                                         "TALLY 3", "bye", "b''"],
                "\(result.stdout)\(result.stderr)")
    }

    @Test("each connection keeps its own count")
    func countsPerConnection() throws {
        let script = try ResponseScript(json: Self.script, vocabulary: .standard.adding(TallyProtocol()))
        let server = try MockServer(script: script)
        try server.start()
        defer { server.stop() }
        let result = try Tools.pythonSocket(port: server.port, """
            a, b = f, connect(\(server.port))[1]
            a.readline(); b.readline()
            for file in [a, a, b, a]:
                file.write(b"COUNT\\r\\n"); file.flush()
                print(line(file))
            """)
        #expect(result.stdout.split(separator: "\n") == ["TALLY 1", "TALLY 2", "TALLY 1", "TALLY 3"], "\(result.stdout)\(result.stderr)")
    }

    @Test("a protocol's variables belong to its scripts, as its commands do")
    func variablesFollowTheScheme() throws {
        let vocabulary = try ScriptVocabulary.standard.adding(TallyProtocol())
        let tally = try ResponseScript(json: Self.script, vocabulary: vocabulary)
        #expect(tally.variables["hexport"] != nil)
        #expect(tally.variables["pasv"] == nil)
        let ftp = try ResponseScript(json: #"{"scheme": "ftp", "responses": {"p": {"pattern": "^P$", "commands": ["$hexport $pasv"]}}}"#, vocabulary: vocabulary)
        #expect(ftp.variables["hexport"] == nil)
        #expect(ftp.variables["pasv"] != nil)
    }

    @Test("without the protocol its scheme is unclaimed and its commands unknown; in an HTTP script they are another protocol's")
    func rejectedElsewhere() throws {
        do {
            _ = try ResponseScript(json: Self.script, file: "tally.json")
            Issue.record("loaded without the TALLY protocol")
        } catch {
            #expect(error.description.hasPrefix("tally.json:2:13: scheme: no protocol claims the scheme \"tally\"; the known schemes are "), "\(error)")
        }
        do {
            _ = try ResponseScript(json: Self.script.replacingOccurrences(of: "\"scheme\": \"tally\",", with: ""), file: "tally.json")
            Issue.record("loaded TALLY's commands without the TALLY protocol")
        } catch {
            #expect(error.description.hasPrefix("tally.json:4:54: "), "\(error)")
            #expect(error.message.contains("unknown key \"shout\""), "\(error)")
        }
        let http = Self.script.replacingOccurrences(of: "\"tally\",", with: "\"http\",")
        do {
            _ = try ResponseScript(json: http, file: "http.json", vocabulary: .standard.adding(TallyProtocol()))
            Issue.record("an HTTP script loaded TALLY's commands")
        } catch {
            #expect("\(error)" == "http.json:4:54: responses.hello.commands[0]: {\"shout\": …} is a command of TALLY, and this script (scheme \"http\") speaks HTTP",
                    "\(error)")
        }
    }

    @Test("a second claim on a scheme is refused when the protocol is added, naming the scheme and both protocols")
    func secondClaimRefused() throws {
        struct LoudHTTP: ScriptProtocol {
            let name = "LOUD"
            let schemes: Set<String> = ["HTTP"]
        }
        #expect(throws: ScriptVocabulary.ClaimError(scheme: "http", claimant: "HTTP", newcomer: "LOUD")) {
            try ScriptVocabulary.standard.adding(LoudHTTP())
        }
        #expect(throws: ScriptVocabulary.ClaimError(scheme: "tally", claimant: "TALLY", newcomer: "TALLY")) {
            try ScriptVocabulary.standard.adding(TallyProtocol()).adding(TallyProtocol())
        }
        let error = ScriptVocabulary.ClaimError(scheme: "http", claimant: "HTTP", newcomer: "LOUD")
        #expect(error.description == #""LOUD" claims the scheme "http", which "HTTP" claims already"#)
    }
}
