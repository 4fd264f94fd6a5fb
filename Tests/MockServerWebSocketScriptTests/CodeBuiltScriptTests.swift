import Testing
import MockServer

/// A WebSocket script built in code reads its byte sends as a file's do: binary messages.
@Suite("WebSocket scripts built in code")
struct CodeBuiltScriptTests {
    @Test("a byte send of UTF-8 bytes, top level or in an otherwise branch, becomes a binary message when the script is made")
    func byteSendsAreBinary() throws {
        let entry = try ResponseEntry("hi", pattern: "^hi$", commands: [
            .sendBytes(Array("ok".utf8)),
            .selectFile("missing.txt", otherwise: [.sendBytes(Array("no".utf8))], strict: true),
            .send("text"),
        ])
        let script = ResponseScript(sets: [ResponseSet(name: "default", entries: [entry])], scheme: "websocket")
        let commands = try #require(try script.set(named: "default").entries.first?.commands)
        guard case .protocolCommand = commands[0] else { Issue.record("\(commands[0]) is not WebSocket's binary message"); return }
        guard case .selectFile(_, let otherwise?, _) = commands[1], case .protocolCommand = otherwise[0] else {
            Issue.record("\(commands[1])'s otherwise branch does not send a binary message"); return
        }
        guard case .send = commands[2] else { Issue.record("\(commands[2]) is no longer a text send"); return }
    }
}
