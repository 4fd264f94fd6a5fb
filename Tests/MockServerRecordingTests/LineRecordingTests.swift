import Foundation
import Testing
import TestSupport
@testable import MockServer
@testable import MockServerRecording

/// Line protocols recorded as response scripts: Python's smtplib through `mockserver record` to a
/// real SMTP server (aiosmtpd), then replayed with the server gone.
@Suite("Recording line protocols", .offPool)
struct LineRecordingTests {
    static var hasAiosmtpd: Bool {
        Tools.hasPython && ((try? Tools.python("import aiosmtpd").status) == 0)
    }

    /// aiosmtpd on a port it prints first; each message it takes is printed too.
    static let smtpServer = """
        import asyncio, socket
        from aiosmtpd.smtp import SMTP
        class Handler:
            async def handle_DATA(self, server, session, envelope):
                print("delivered", envelope.mail_from, envelope.rcpt_tos, len(envelope.content), flush=True)
                return "250 Message accepted for delivery"
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        print(listener.getsockname()[1], flush=True)
        loop = asyncio.new_event_loop()
        loop.run_until_complete(loop.create_server(lambda: SMTP(Handler(), hostname="mail.example"), sock=listener))
        loop.run_forever()
        """

    static let smtpClient = """
        import smtplib, sys
        message = "From: ann@example.com\\r\\nTo: bob@example.com\\r\\nSubject: recorded\\r\\n\\r\\nHello Bob,\\r\\n.dotted line\\r\\nbye\\r\\n"
        with smtplib.SMTP("127.0.0.1", int(sys.argv[1]), local_hostname="client.example", timeout=20) as smtp:
            print(smtp.ehlo()[0])
            refused = smtp.sendmail("ann@example.com", ["bob@example.com"], message)
            print("refused", refused)
        print("sent")
        """

    @Test("smtplib through mockserver record to aiosmtpd; the script replays it with aiosmtpd stopped",
          .enabled(if: hasAiosmtpd))
    func smtp() throws {
        let work = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let script = work.appendingPathComponent("smtp.json")
        let server = try PythonServer(Self.smtpServer)
        let upstream = server.port

        let recorder = try RunningCommand(["record", "--upstream", "tcp://127.0.0.1:\(upstream)", "--script", script.path])
        let port = try #require(UInt16(recorder.firstLine.split(separator: ":").last ?? ""), "first line: \(recorder.firstLine)")
        #expect(recorder.nextLine() == "mockserver recording tcp://127.0.0.1:\(upstream) into \(script.path)")
        let recorded = try Tools.run("python3", ["-c", Self.smtpClient, String(port)])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stdout == "250\nrefused {}\nsent\n")
        #expect(server.nextLine().hasPrefix("delivered ann@example.com ['bob@example.com']"))
        let (status, stderr) = recorder.terminate()
        #expect(status == 0)
        #expect(stderr.contains("mockserver recorded 1 connections into \(script.path)"), "\(stderr)")
        server.stop()

        let check = try Tools.run(Tools.mockserver.path, ["--check", script.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let text = try String(contentsOf: script, encoding: .utf8)
        #expect(text.contains(#""pattern": "^ehlo client\\.example$""#), "\(text)")
        #expect(text.contains("\"fallback\""))

        let replay = try RunningCommand([script.path])
        let replayPort = try #require(replay.ports?.0, "first line: \(replay.firstLine)")
        defer { _ = replay.terminate() }
        for _ in 0..<2 {
            let again = try Tools.run("python3", ["-c", Self.smtpClient, String(replayPort)])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout == recorded.stdout)
        }
    }

    @Test("a line answered differently later starts a set, switched to by the line before it; identical exchanges are written once")
    func changedAnswers() throws {
        typealias Exchange = RecordedDialogue.Exchange
        let dialogue = RecordedDialogue(greeting: Array("+OK ready\r\n".utf8), exchanges: [
            Exchange(line: "USER ann", reply: Array("+OK\r\n".utf8)),
            Exchange(line: "PASS x", reply: Array("-ERR wrong\r\n".utf8)),
            Exchange(line: "USER ann", reply: Array("+OK\r\n".utf8)),
            Exchange(line: "PASS x", reply: Array("+OK in $1\r\n".utf8)),
            Exchange(line: "STAT", reply: Array("+OK 1 5\r\n".utf8)),
            Exchange(line: "QUIT", reply: Array("+OK bye\r\n".utf8), closedAfter: true),
        ])
        let text = DialogueScript(keepsTiming: false, source: "tcp://pop").script(for: [dialogue])
        let script = try ResponseScript(json: Array(text.utf8))
        try script.validate()
        // Replayed line by line through the script's responder: the same replies in the same order.
        let server = MockServer(responder: try PatternResponder(script: script))
        try server.start()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        #expect(try client.readLine() == "+OK ready")
        var replies: [String] = []
        for exchange in dialogue.exchanges {
            try client.send(exchange.line + "\r\n")
            replies.append(try client.readLine())
        }
        #expect(replies == ["+OK", "-ERR wrong", "+OK", "+OK in $1", "+OK 1 5", "+OK bye"])
        #expect(try client.readToEnd().isEmpty)
        // The password is not written: the line is named and matched with any value.
        #expect(text.contains(#""after PASS MASKED": { "responses""#), "\(text)")
        #expect(!text.contains("PASS x") && text.contains(#"^PASS .*$"#), "\(text)")
    }
}
