import MockServer
import Testing

/// What `{"beep": …}` hands its driver: a type no driver of the package takes.
struct Beep: Sendable {
    let pitch: Int
}

/// `{"beep": N}`: a command written for a driver of its own, whose output no line connection carries.
struct BeepCommand: ProtocolCommand {
    let pitch: Int

    func run(_ match: ScriptRun.Match, in reply: ScriptRun) -> ScriptRun.Outcome<Beep> {
        .continue([.output(Beep(pitch: pitch))])
    }
}

/// A line protocol with `{"beep": N}` beside TALLY's `«tally»`, which has no output of its own.
struct BeepProtocol: ScriptProtocol {
    let name = "BEEP"
    let schemes: Set<String> = ["beep"]
    let extendedProtocols = ["TALLY"]
    let keys = ["beep"]

    func command(key: String, object: ScriptDecoding.CommandObject, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        .command(BeepCommand(pitch: 440))
    }
}

@Suite("A command reaches only a driver that takes its output")
struct CommandOutputTests {
    static func vocabulary() throws -> ScriptVocabulary { try ScriptVocabulary.standard.adding(TallyProtocol()).adding(BeepProtocol()) }

    @Test("a command whose output its script's connections cannot carry is refused when the script loads, at its place")
    func foreignOutputRefused() throws {
        let json = #"{"scheme": "beep", "responses": {"b": {"pattern": "^B$", "commands": ["ok\r\n", {"beep": 1}]}}}"#
        let error = #expect(throws: ResponseFileError.self) { try ResponseScript(json: json, file: "beep.json", vocabulary: Self.vocabulary()) }
        #expect(error?.description == #"beep.json:1:82: responses.b.commands[1]: {"beep": …} is a command of BEEP for connections this script does not have: it is framed as lines (scheme "beep")"#)
    }

    @Test("a command without output of its own fits every script")
    func noOutputFits() throws {
        let json = #"{"scheme": "beep", "responses": {"t": {"pattern": "^T$", "commands": ["«tally»"]}}}"#
        _ = try ResponseScript(json: json, vocabulary: Self.vocabulary())
    }

    @Test("HTTP's response command in an HTTP script framed as lines is refused, not skipped when it runs")
    func httpResponseInLines() throws {
        let json = #"{"scheme": "http", "framing": "lines", "responses": {"r": {"pattern": "^GET", "commands": [{"response": {"body": "hi"}}]}}}"#
        let error = #expect(throws: ResponseFileError.self) { try ResponseScript(json: json, vocabulary: .standard) }
        #expect(error?.message.contains(#"{"response": …} is a command of HTTP for connections this script does not have: it is framed as lines"#) == true)
    }

    @Test("a script built in code with such a command does not start, naming the command's response")
    func codeBuiltRefused() throws {
        let set = ResponseSet(name: "default", entries: [try ResponseEntry("go", pattern: "^GO$", commands: [.send("ok\r\n"), .continueRequest])])
        let server = try MockServer(script: ResponseScript(sets: [set]))
        let error = #expect(throws: ResponseFileError.self) { try server.start() }
        #expect(error?.message.hasPrefix("sets.default.go: ") == true)
        server.stop()
    }
}
