import Foundation
import Testing
import TestSupport
import MockServer
import MockServerCore
import MockServerHTTP
import MockServerScript
import MockServerWebDAV

/// Responses with `"head": true` answer a request head while curl waits to send a 5 MiB body.
@Suite("Answering a request head before its body", .offPool)
struct ExpectContinueTests {
    static let script = """
        {"scheme": "http",
         "responses": {
            "too large": {"head": true, "pattern": "^PUT /large ",
                          "commands": [{"response": {"status": "413 Content Too Large", "headers": {"Connection": "close"}, "body": "too large: ${header:Content-Length} bytes\\n"}}]},
            "slow continue": {"head": true, "pattern": "^PUT /slow ", "commands": [0.05, "«continue»"]},
            "put": {"pattern": "^PUT (\\\\S+) ", "commands": [{"save": "$1"}, {"response": {"status": "201 Created", "body": "stored $1\\n"}}]}
         }}
        """

    private static let bodySize = 5 << 20

    private func start() async throws -> MockServer {
        let server = try MockServer(script: ResponseScript(json: Self.script))
        try await server.start()
        return server
    }

    private func put(_ path: String, to server: MockServer) throws -> (code: String, body: String, uploaded: String, log: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("expect-\(UUID().uuidString)")
        try Tools.randomBytes(Self.bodySize, seed: 7).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try Tools.curl(maxTime: 30, ["-v", "-w", "\n%{http_code} %{size_upload}", "-T", file.path,
                                            "http://127.0.0.1:\(server.port)\(path)"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let summary = (lines.last ?? "").split(separator: " ").map(String.init)
        return (summary.first ?? "", lines.dropLast().joined(separator: "\n"), summary.last ?? "", result.stderr)
    }

    @Test("a final answer to the head: curl never sends the body, the server closes after answering", .enabled(if: Tools.hasCurl))
    func refused() async throws {
        let server = try await start()
        defer { server.stop() }
        let reply = try put("/large", to: server)
        #expect(reply.code == "413", "\(reply.log)")
        #expect(reply.body == "too large: \(Self.bodySize) bytes\n")
        #expect(reply.uploaded == "0", "\(reply.log)")
        let closed = try await server.transcript.wait { if case .closed = $0.event { true } else { false } }
        #expect(closed.event == .closed(.script))
        let answered = server.transcript.inputs
        #expect(answered.count == 1)
        #expect(answered.first.map { String(decoding: $0.bytes, as: UTF8.self).hasSuffix("Expect: 100-continue\r\n\r\n") } == true)
        #expect(server.transcript.entries.contains { $0.event == .input(answered[0], response: "too large") })
        #expect(server.uploads.isEmpty)
    }

    @Test("«continue» after a pause lets the body come, and the whole request is answered as usual", .enabled(if: Tools.hasCurl))
    func continued() async throws {
        let server = try await start()
        defer { server.stop() }
        let reply = try put("/slow", to: server)
        #expect(reply.code == "201", "\(reply.log)")
        #expect(reply.body == "stored /slow\n")
        #expect(!reply.log.contains("Done waiting for 100-continue"), "\(reply.log)")
        let upload = try await server.waitForUpload(named: "/slow")
        #expect(upload.data == Tools.randomBytes(Self.bodySize, seed: 7))
        let responses = server.transcript.entries.compactMap { entry -> String? in
            switch entry.event {
            case .input(_, let response): "input \(response ?? "-")"
            case .paused: "pause"
            case .output(let bytes): String(decoding: bytes.prefix(12), as: UTF8.self)
            default: nil
            }
        }
        #expect(responses == ["input slow continue", "pause", "HTTP/1.1 100", "input put", "HTTP/1.1 201"])
    }

    @Test("a head no head response matches gets 100 Continue, and nothing is recorded for it", .enabled(if: Tools.hasCurl))
    func unmatchedHead() async throws {
        let server = try await start()
        defer { server.stop() }
        let reply = try put("/other", to: server)
        #expect(reply.code == "201", "\(reply.log)")
        #expect(!reply.log.contains("Done waiting for 100-continue"), "\(reply.log)")
        #expect(server.transcript.inputs.count == 1)
        #expect(server.transcript.unmatched.isEmpty)
    }

    @Test("the loader keeps head responses apart from whole-request ones")
    func loader() throws {
        let script = try ResponseScript(json: Self.script)
        let responder = try PatternResponder(script: script)
        var session = ScriptSession(connectionID: 1)
        let context = SubstitutionContext(data: [])
        let head = InputUnit("PUT /large HTTP/1.1\r\nContent-Length: 9\r\nExpect: 100-continue\r\n\r\n")
        #expect(responder.respond(toHead: head, session: &session, context: context)?.response == "too large")
        #expect(responder.respond(to: InputUnit("PUT /large HTTP/1.1\r\nContent-Length: 2\r\n\r\nok"), session: &session, context: context)?.response == "put")
        #expect(responder.respond(toHead: InputUnit("PUT /x HTTP/1.1\r\n\r\n"), session: &session, context: context) == nil)
    }

    @Test("\"head\" is HTTP's: a script of another protocol that writes it fails to load, naming HTTP")
    func headIsHTTPs() throws {
        let ftp = #"{"scheme": "ftp", "responses": {"a": {"head": true, "pattern": "^STOR ", "commands": []}}}"#
        #expect {
            try ResponseScript(json: ftp)
        } throws: { error in
            guard let error = error as? ResponseFileError,
                  case .foreignCommand(let path, let command, let owner, _, _) = error.problem else { return false }
            return path == "responses.a.head" && command == "\"head\"" && owner == "HTTP"
        }
        let webdav = #"{"scheme": "webdav", "responses": {"a": {"head": true, "pattern": "^PUT ", "commands": ["«continue»"]}}}"#
        #expect(try ResponseScript(json: webdav).set(named: "default").entries.first?.answersPart == true)
    }
}
