import MockServer
import Testing

/// `{"shout": "text"}`: sends the text, after substitutions, in capitals.
struct Shout: ProtocolCommand {
    let text: ResponseTemplate
    func run(_ match: ScriptRun.Match, in reply: ScriptRun) -> ScriptRun.Outcome<Never> {
        let rendered = String(decoding: reply.render(text, match: match), as: UTF8.self)
        return .continue([.send(Array(rendered.uppercased().utf8))])
    }
}

/// The SHOUT protocol's part of the script language: `scheme: "shout"`, lines, and `{"shout": …}`.
struct ShoutProtocol: ScriptProtocol {
    let name = "SHOUT"
    let schemes: Set<String> = ["shout"]
    let keys = ["shout"]
    func command(key: String, object: ScriptDecoding.CommandObject, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        .command(Shout(text: ResponseTemplate(try decoding.string(object.command.value, path: "\(decoding.path).shout"))))
    }
}

@Test func ownCommands() async throws {
    let json = #"{"scheme": "shout", "responses": {"echo": {"pattern": "^SAY (.*)", "commands": [{"shout": "$1\r\n"}]}}}"#
    let script = try ResponseScript(json: json, file: "shout.json", vocabulary: .standard.adding(ShoutProtocol()))
    #expect(try script.set(named: "default").entries[0].commands == [.command(Shout(text: "$1\r\n"))])
    // Without the protocol, the command is unknown, at its line and column.
    #expect(throws: ResponseFileError.self) { try ResponseScript(json: json, file: "shout.json") }
    let server = try MockServer(script: script)
    try await server.start()
    await server.stop()
}
