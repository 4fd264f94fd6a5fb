import Foundation
import Testing
import TestSupport
import MockServer
import MockServerCore
import MockServerRecording
import MockServerHTTP

/// The recording's pure parts: masking, the command line's refusals, endpoints' bytes bodies.
@Suite("Recording: masking, options, formats", .offPool)
struct RecordingUnitTests {
    @Test("a transcript's request and response keep their shape with masked values hidden, JSON fields included")
    func transcriptMasking() {
        var mask = HTTPRecorder.Mask.standard
        mask.jsonFields = ["password"]
        let request = Array("POST /login HTTP/1.1\r\nHost: x\r\nauthorization: Bearer abc\r\nCookie: a=1\r\nContent-Type: application/json\r\n\r\n{\"password\":\"pw\",\"user\":\"ann\"}".utf8)
        let masked = String(decoding: TranscriptMasking.masked(request, mask: mask), as: UTF8.self)
        #expect(masked == "POST /login HTTP/1.1\r\nHost: x\r\nauthorization: MASKED\r\nCookie: MASKED\r\nContent-Type: application/json\r\n\r\n{\"password\":\"MASKED\",\"user\":\"ann\"}")
        // Not JSON, or no masked field: the body is left as it came.
        let plain = Array("HTTP/1.1 200 OK\r\nSet-Cookie: s=1\r\n\r\npassword=pw".utf8)
        #expect(String(decoding: TranscriptMasking.masked(plain, mask: mask), as: UTF8.self) == "HTTP/1.1 200 OK\r\nSet-Cookie: MASKED\r\n\r\npassword=pw")
        let entry = Transcript.Entry(sequence: 0, connection: 1, channel: .main, time: Date(), event: .output(request))
        guard case .output(let bytes) = TranscriptMasking.masked(entry, mask: mask).event else { Issue.record("not output"); return }
        #expect(!String(decoding: bytes, as: UTF8.self).contains("abc"))
    }

    @Test("a body recorded apart from its head (a large HTTP/1.1 answer, an HTTP/2 stream's) is masked as that head's Content-Type says, per connection and stream")
    func bodyApartFromItsHead() {
        var mask = HTTPRecorder.Mask.standard
        mask.jsonFields = ["pin"]
        let masker = TranscriptMasker(mask: mask)
        func output(_ text: String, connection: Int = 1, stream: Int? = nil) -> String {
            let exchange = stream.map { Transcript.Exchange(protocolName: "HTTP/2", stream: $0) }
            let entry = Transcript.Entry(sequence: 0, connection: connection, channel: .main, time: Date(), event: .output(Array(text.utf8)), exchange: exchange)
            guard case .output(let bytes) = masker.masked(entry).event else { return "not output" }
            return String(decoding: bytes, as: UTF8.self)
        }
        let body = #"{"pin":"4711","id":1}"#
        func hidden(_ text: String) -> Bool { !text.contains("4711") && text.contains("MASKED") }
        #expect(output("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 25\r\n\r\n") .hasPrefix("HTTP/1.1 200 OK"))
        // Another connection's output between the head and its body changes nothing.
        #expect(output(body, connection: 2) == body)
        #expect(hidden(output(body)))
        // Once masked, a further entry on the connection is not taken as that body.
        #expect(output(body) == body)
        // HTTP/2: the head and the body on one stream, another stream's body untouched.
        _ = output("HTTP/2 200\r\ncontent-type: application/json\r\n\r\n", stream: 3)
        #expect(output(body, stream: 5) == body)
        #expect(hidden(output(body, stream: 3)))
        // A head with its body in the same entry is masked as before.
        #expect(hidden(output("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + body)))
    }

    @Test("a chunked request's JSON and form bodies are masked in the transcript too, written again as one chunk")
    func chunkedTranscriptMasking() {
        let mask = HTTPRecorder.Mask.standard
        let json = Array("POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n{\"passwo\r\ne\r\nrd\":\"hunter2\"}\r\n0\r\n\r\n".utf8)
        let masked = String(decoding: TranscriptMasking.masked(json, mask: mask), as: UTF8.self)
        #expect(!masked.contains("hunter2"), "\(masked)")
        #expect(masked.hasSuffix("\r\n\r\n15\r\n{\"password\":\"MASKED\"}\r\n0\r\n\r\n"), "\(masked)")
        let form = Array("POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n5\r\ntoken\r\n6\r\n=s3cr3\r\n1\r\nt\r\n0\r\n\r\n".utf8)
        #expect(String(decoding: TranscriptMasking.masked(form, mask: mask), as: UTF8.self).hasSuffix("\r\n\r\nc\r\ntoken=MASKED\r\n0\r\n\r\n"))
    }

    @Test("a line protocol's password (PASS, ACCT, any case) is masked in the transcript; other lines, and an HTTP body's, are not")
    func passwordLines() {
        let mask = HTTPRecorder.Mask.standard
        #expect(String(decoding: TranscriptMasking.masked(Array("PASS hunter2\r\n".utf8), mask: mask), as: UTF8.self) == "PASS MASKED\r\n")
        #expect(String(decoding: TranscriptMasking.masked(Array("pass hunter2".utf8), mask: mask), as: UTF8.self) == "pass MASKED")
        #expect(String(decoding: TranscriptMasking.masked(Array("ACCT 1234\r\n".utf8), mask: mask), as: UTF8.self) == "ACCT MASKED\r\n")
        #expect(String(decoding: TranscriptMasking.masked(Array("USER ann\r\n".utf8), mask: mask), as: UTF8.self) == "USER ann\r\n")
        let http = "POST / HTTP/1.1\r\nHost: x\r\n\r\nPASS kept"
        #expect(String(decoding: TranscriptMasking.masked(Array(http.utf8), mask: mask), as: UTF8.self) == http)
    }

    @Test("mockserver record refuses what it cannot do, naming it", arguments: [
        ([], "record: --upstream URL is required"),
        (["--upstream", "http://127.0.0.1:1"], "record: give --mock-data DIR or --endpoints FILE"),
        (["--upstream", "http://127.0.0.1:1", "--mock-data", "a", "--endpoints", "b"], "--mock-data and --endpoints exclude each other"),
        (["--upstream", "tcp://127.0.0.1:1"], "a tcp:// upstream is recorded as a script: give --script FILE"),
        (["--upstream", "http://127.0.0.1:1", "--script", "s.json"], "--script is for tcp:// and ftp:// upstreams"),
        (["--upstream", "ftp://127.0.0.1:21", "--script", "s.json"], "give --script FILE and --files DIR"),
        (["--upstream", "http://127.0.0.1:1", "--mock-data", "a", "--upstream-ca", "ca.pem"], "a CA file is for https upstreams"),
        (["--upstream", "https://127.0.0.1:1", "--mock-data", "a", "--upstream-ca", "/no/such/ca.pem"], "no CA certificate could be read from /no/such/ca.pem"),
        (["--upstream", "http://127.0.0.1:1", "--mock-data", "a", "--timeout", "0"], "--timeout takes seconds above 0"),
        (["--upstream", "http://127.0.0.1:1", "--mock-data", "a", "--bogus"], "record: unknown argument --bogus"),
        (["--upstream", "http://127.0.0.1:1", "--mock-data", "a", "--http2", "sometimes"], "record: --http2 takes allow, refuse or require, not \"sometimes\""),
        (["--upstream", "http://127.0.0.1:1", "--mock-data", "a", "--tls-ca-out", "ca.pem"], "record: --tls-ca-out needs --tls"),
        (["--upstream", "tcp://127.0.0.1:1", "--script", "s.json", "--tls"], "record: --tls and --http2 are for http(s):// upstreams"),
        (["--upstream", "ftp://127.0.0.1:21", "--script", "s.json", "--files", "f", "--http2", "refuse"], "record: --tls and --http2 are for http(s):// upstreams"),
    ])
    func refusals(arguments: [String], message: String) throws {
        let result = try Tools.run(Tools.mockserver.path, ["record"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("record --help prints its usage and exits 0")
    func help() throws {
        let result = try Tools.run(Tools.mockserver.path, ["record", "--help"])
        #expect(result.status == 0 && result.stdout.hasPrefix("USAGE: mockserver record --upstream URL"))
    }

    @Test("a recorder takes an endpoints file whose endpoints upgrade to WebSocket scripts, and counts them as answered")
    func upgradeEndpointsLoad() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("upgrade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("api.json")
        try Data(#"{"endpoints": [{"api": "get /chat", "upgrade": {"scheme": "websocket", "responses": {"hi": {"pattern": "«initial»", "commands": ["hi"]}}}}]}"#.utf8).write(to: file)
        let recorder = try HTTPRecorder(upstream: URL(string: "http://127.0.0.1:9")!, destination: .endpoints(file: file))
        let request = try #require(HTTPMockRequest(parsing: Array("GET /chat HTTP/1.1\r\nHost: x\r\n\r\n".utf8)))
        let context = HTTPRequestContext(connectionID: 1, peer: nil, local: nil,
                                         environment: ServerEnvironment(transcript: Transcript(), logger: MockServerLogger(level: nil) { _ in }))
        guard case .reply(let reply) = try recorder.answerImmediately(request, context: context), case .output(.upgrade)? = reply.steps.first else {
            Issue.record("the file's upgrade did not answer")
            return
        }
        #expect(recorder.statistics.replayed == 1)
    }

    @Test("an endpoint's body may be bytes, {\"base64\": …} or {\"hex\": …}, sent as they are")
    func bytesBodies() async throws {
        let server = HTTPMockServer()
        try server.addEndpoints(json: Array(#"""
            { "endpoints": [
                { "api": "get /gz", "response": { "headers": { "Content-Encoding": "gzip" }, "body": { "base64": "H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA==" } } },
                { "api": "get /hex", "response": { "body": { "hex": "24 7b 6e 6f 74 7d" } } },
            ] }
            """#.utf8))
        try await server.start()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        try client.send("GET /hex HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let text = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(text.hasSuffix("\r\n\r\n${not}"), "\(text)")
        let gzip = try Tools.curl(["--compressed", "http://127.0.0.1:\(server.port)/gz"])
        #expect(gzip.stdout == "hello")
        do {
            try server.addEndpoints(json: Array(#"{ "endpoints": [ { "api": "get /x", "response": { "body": { "base64": "!!" } } } ] }"#.utf8))
            Issue.record("bad base64 accepted")
        } catch {
            #expect("\(error)".contains("endpoints[0].response.body"), "\(error)")
        }
    }
}
