import Foundation
import Testing
import TestSupport
import MockServer
import MockServerCore
import MockServerHTTP
import MockServerHTTPScript
import MockServerScript
import MockServerWebDAV

/// Request framing with curl: keep-alive, pipelining, 100-continue, original-style patterns.
@Suite("HTTP through scripts", .offPool)
struct HTTPScriptTests {
    static let script = """
        {"scheme": "http",
         "responses": {
            "put with auth": {"pattern": "^PUT .*Authorization: Basic dXNlcjpwYXNz.*", "commands": ["HTTP/1.1 201 Created\\r\\nContent-Length: 0\\r\\n\\r\\n"]},
            "put":  {"pattern": "^PUT ", "commands": ["HTTP/1.1 401 Unauthorized\\r\\nContent-Length: 0\\r\\n\\r\\n"]},
            "get":  {"pattern": "^GET (\\\\S+) ", "commands": ["HTTP/1.1 200 OK\\r\\nContent-Length: 3\\r\\n\\r\\nhi\\n"]},
            "old":  {"pattern": "^DELETE .*\\r\\n\\r\\n.*", "commands": ["HTTP/1.1 204 No Content\\r\\nConnection: close\\r\\n\\r\\n", "«close»"]}
         }}
        """

    private func start() throws -> MockServer {
        let server = try MockServer(script: ResponseScript(json: Self.script))
        try server.start()
        return server
    }

    @Test("two GETs reuse one keep-alive connection", .enabled(if: Tools.hasCurl))
    func keepAlive() throws {
        let server = try start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let result = try Tools.curl(["\(base)/a", "\(base)/b"])
        #expect(result.stdout == "hi\nhi\n", "\(result.stderr)")
        let connections = server.transcript.entries.filter { if case .connected = $0.event { true } else { false } }
        #expect(connections.count == 1)
        #expect(server.transcript.inputs.count == 2)
    }

    @Test("a 5 MiB PUT gets 100 Continue at once, and the whole request matches an original-style pattern", .enabled(if: Tools.hasCurl))
    func bigPut() throws {
        let server = try start()
        defer { server.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("put-\(UUID().uuidString)")
        try Tools.randomBytes(5 << 20, seed: 5).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try Tools.curl(maxTime: 30, ["-v", "-o", "/dev/null", "-w", "%{http_code}", "-u", "user:pass",
                                            "-T", file.path, "http://127.0.0.1:\(server.port)/file.bin"])
        #expect(result.stdout == "201", "\(result.stderr)\n\(server.transcript.dump().prefix(2000))")
        // curl gives up waiting after a second and sends the body anyway, saying so: the answer must come first.
        #expect(!result.stderr.contains("Done waiting for 100-continue"), "\(result.stderr)")
        let outputs = server.transcript.entries.compactMap { entry -> String? in
            if case .output(let bytes) = entry.event { String(decoding: bytes, as: UTF8.self) } else { nil }
        }
        #expect(outputs.first == "HTTP/1.1 100 Continue\r\n\r\n")
        let request = try #require(server.transcript.inputs.first)
        #expect(request.bytes.count > 5 << 20)
    }

    @Test("pipelined requests in one write are answered in order; a DELETE closes", .enabled(if: Tools.hasCurl))
    func pipelined() throws {
        let server = try start()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        try client.send("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nPUT /2 HTTP/1.1\r\nContent-Length: 2\r\n\r\nokDELETE /3 HTTP/1.1\r\n\r\n")
        let reply = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(reply == "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nhi\nHTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\nHTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
    }

    @Test("{\"file\": \"$path\"} finds a file by its decoded path, as the other file commands do; {\"save\": \"$path\"} stores under it", .enabled(if: Tools.hasCurl))
    func fileByDecodedPath() throws {
        let json = #"""
            {"scheme": "http", "files": {"/x y.txt": "spaced", "/a%41": "percent"},
             "responses": {
                "put": {"pattern": "^PUT (\\S+) ", "commands": [{"save": "$1"}, {"response": {"status": "201 Created"}}]},
                "get": {"pattern": "^GET (\\S+) ", "commands": [{"file": "$1", "strict": true, "otherwise": [{"response": {"status": "404 Not Found"}}]},
                                                           {"response": {"body": "«data»"}}]}
             }}
            """#
        let server = try MockServer(script: ResponseScript(json: json))
        try server.start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        #expect(try Tools.curl(["-sS", "\(base)/x%20y.txt"]).stdout == "spaced")
        #expect(try Tools.curl(["-sS", "\(base)/a%2541"]).stdout == "percent")
        #expect(try Tools.curl(["-sS", "-o", "/dev/null", "-w", "%{http_code}", "\(base)/aA"]).stdout == "404")
        #expect(try Tools.curl(["-sS", "-o", "/dev/null", "-w", "%{http_code}", "-T", "-", "\(base)/new%20file"], input: "fresh").stdout == "201")
        #expect(server.files["/new file"] == Data("fresh".utf8))
        #expect(try Tools.curl(["-sS", "\(base)/new%20file"]).stdout == "fresh")
    }

    @Test("a malformed request gets a 400 naming it and closes the connection with the reason recorded")
    func malformed() async throws {
        let server = try start()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        try client.send("NONSENSE\r\n\r\n")
        let answer = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(answer)")
        #expect(answer.hasSuffix("\r\n\r\nMockServer: 400 Bad Request: malformed request: the request line is not METHOD TARGET VERSION\n"), "\(answer)")
        client.shutdownWrite()
        let closed = try await server.transcript.wait { if case .closed = $0.event { true } else { false } }
        #expect(closed.event == .closed(.malformedInput("the request line is not METHOD TARGET VERSION")))
    }
}

@Suite("HTTP responses and request substitutions", .offPool)
struct HTTPResponseTests {
    /// A reply's values in a server of the standard vocabulary, whose variables every script may use.
    let context = SubstitutionContext(data: Array("DATA".utf8), protocolVariables: ScriptVocabulary.standard.variables)

    @Test("$method, $path, $body and ${header:Name} come from the request; outside a request they are empty")
    func requestSubstitutions() {
        let request = InputUnit("POST /items?x=1 HTTP/1.1\r\nHost: example\r\nX-Token:  abc \r\nContent-Length: 4\r\n\r\nbody")
        let template = ResponseTemplate("$method $path [${header:x-token}] [${header:Missing}] <$body>")
        // The HTTP driver hands the parsed request to every reply.
        var answering = context
        answering.protocolValues[HTTPMockRequest.self] = HTTPMockRequest(parsing: request.bytes)
        #expect(String(decoding: template.render(input: request, context: answering), as: UTF8.self) == "POST /items?x=1 [abc] [] <body>")
        #expect(String(decoding: template.render(input: InputUnit("NOOP"), context: context), as: UTF8.self) == "  [] [] <>")
    }

    @Test("HTTP's request variables: the header's name in any case, a binary body sent as it came, `$header` alone and unknown `${name:x}` as written")
    func requestVariableEdges() throws {
        let request = InputUnit(bytes: Array("PUT /b HTTP/1.1\r\nX-Token: abc\r\nContent-Length: 3\r\n\r\n".utf8) + [0x00, 0xFF, 0x41])
        var answering = context
        answering.protocolValues[HTTPMockRequest.self] = HTTPMockRequest(parsing: request.bytes)
        #expect(ResponseTemplate("<$body>").render(input: request, context: answering) == [0x3C, 0x00, 0xFF, 0x41, 0x3E])
        let text = ResponseTemplate("${HEADER:x-token} ${Header:X-TOKEN} $header ${header} ${header:} ${nothing:x} ${method}").render(input: request, context: answering)
        #expect(String(decoding: text, as: UTF8.self) == "abc abc $header ${header} ${header:} ${nothing:x} PUT")
    }

    @Test("in an FTP script, $method, $path, $body and ${header:Name} are empty, as documented for line protocols")
    func requestVariablesOutsideHTTP() throws {
        let script = try ResponseScript(json: #"{"responses": {"r": {"pattern": "^NOOP", "commands": ["200 [$method][$path][$body][${header:Host}] $pasv"]}}}"#)
        var session = ScriptSession(connectionID: 1)
        var values = context
        // What the server gives a reply: its vocabulary's variables, under the script's own.
        values.protocolVariables.merge(script.variables) { _, own in own }
        let input = InputUnit("NOOP")
        let reply = try #require(PatternResponder(script: script).respond(to: input, session: &session, context: values))
        guard case .send(let template) = reply.commands[0] else { Issue.record("\(reply.commands)"); return }
        #expect(String(decoding: template.render(input: input, context: values), as: UTF8.self) == "200 [][][][] 127,0,0,1,0,0")
    }

    @Test("a response gets a computed Content-Length, except with its own, chunked, 1xx, 204 or 304")
    func contentLength() throws {
        func render(_ json: String) throws -> String {
            let script = try ResponseScript(json: #"{"scheme": "http", "responses": {"r": {"pattern": ".", "commands": [{"response": \#(json)}]}}}"#)
            var session = ScriptSession(connectionID: 1)
            let input = InputUnit("GET /p HTTP/1.1\r\n\r\n")
            var values = context
            values.protocolValues[HTTPMockRequest.self] = HTTPMockRequest(parsing: input.bytes)
            let reply = try #require(try PatternResponder(script: script).respond(to: input, session: &session, context: values))
            guard case .protocolCommand(let command) = reply.commands[0], case .response(let template) = command.base as? HTTPScriptCommand else { return "" }
            return String(decoding: template.render(input: reply.match.input, groups: reply.match.groups, context: values), as: UTF8.self)
        }
        #expect(try render(#"{"headers": {"Content-Type": "text/plain"}, "body": "at $path"}"#)
                == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nat /p")
        #expect(try render(#"{"status": "204 No Content", "body": "ignored"}"#) == "HTTP/1.1 204 No Content\r\n\r\n")
        #expect(try render(#"{"headers": {"Content-Length": "99"}, "body": "x"}"#) == "HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\nx")
        #expect(try render(#"{"status": "201 Created", "body": {"hex": "00ff"}}"#) == "HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n\u{0}\u{FFFD}")
        #expect(try render(#"{"body": "«data»"}"#) == "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nDATA")
        #expect(throws: ResponseFileError.self) { try render(#"{"headers": {"Bad Name": "x"}}"#) }
        #expect(throws: ResponseFileError.self) { try render(#"{"code": 200}"#) }
    }

    @Test("keep-alive clients work with computed lengths: curl reuses one connection for three requests", .enabled(if: Tools.hasCurl))
    func keepAliveWithComputedLength() throws {
        let script = try ResponseScript(json: """
            {"scheme": "http", "responses": {
                "echo": {"pattern": "^(GET|POST) ", "commands": [{"response": {"headers": {"Content-Type": "text/plain"},
                         "body": "$method $path ${header:X-Name} $body\\n"}}]}}}
            """)
        let server = try MockServer(script: script)
        try server.start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let result = try Tools.curl(["-H", "X-Name: ada", "\(base)/one", "\(base)/two",
                                            "--next", "-sS", "-d", "payload", "\(base)/three"])
        #expect(result.stdout == "GET /one ada \nGET /two ada \nPOST /three  payload\n", "\(result.stderr)")
        let connections = server.transcript.entries.filter { if case .connected = $0.event { true } else { false } }
        #expect(connections.count == 1)
    }
}

@Suite("Saving request bodies", .offPool)
struct SaveBodyTests {
    @Test("a chunked body is saved without its framing; strict file lookups answer otherwise when nothing is stored", .enabled(if: Tools.hasCurl))
    func saveAndReadBack() async throws {
        let script = try ResponseScript(json: """
            {"scheme": "http", "responses": {
                "put": {"pattern": "^PUT ", "commands": [{"save": "$path"}, {"response": {"status": "201 Created"}}]},
                "get": {"pattern": "^GET ", "commands": [{"file": "$path", "strict": true, "otherwise": [{"response": {"status": "404 Not Found"}}]},
                                                        {"response": {"body": "«data»"}}]}}}
            """)
        let server = try MockServer(script: script)
        server.data = Data("not this".utf8)
        try await server.start()
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        #expect(try Tools.curl(["-o", "/dev/null", "-w", "%{http_code}", "\(url)/a"]).stdout == "404")
        let put = try Tools.curl(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Transfer-Encoding: chunked", "--data-binary", "chunked body", "-X", "PUT", "\(url)/a"])
        #expect(put.stdout == "201", "\(put.stderr)")
        #expect(try await server.waitForUpload(named: "/a").data == Data("chunked body".utf8))
        #expect(try Tools.curl(["\(url)/a"]).stdout == "chunked body")
        #expect(server.files["/a"] == Data("chunked body".utf8))
    }
}
