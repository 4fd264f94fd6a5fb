import Foundation
import Testing
import TestSupport
import MockServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Nocilla's stub DSL and Voodoo's endpoints, served over the socket, driven by real clients.
@Suite("HTTP stubs and endpoints", .offPool)
struct HTTPStubTests {
    private func start(_ build: (HTTPMockServer) throws -> Void) async throws -> HTTPMockServer {
        let server = HTTPMockServer()
        try build(server)
        try await server.start()
        return server
    }

    private func send(_ request: URLRequest) async throws -> (Int, String, HTTPURLResponse) {
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, String(decoding: data, as: UTF8.self), http)
    }

    private func request(_ server: HTTPMockServer, _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil) -> URLRequest {
        TestRequest.make(port: server.port, method, path, headers: headers, body: body)
    }

    @Test("the contract: a stub on method, path, headers and body answers with status, headers and body (URLSession)")
    func contract() async throws {
        let server = try await start { server in
            server.stubRequest("POST", "/dogs.json")
                .withHeaders(["Accept": "application/json"])
                .withBody(#"{"name":"foo"}"#)
                .andReturn(201)
                .withHeaders(["Content-Type": "application/json"])
                .withBody(#"{"ok":true}"#)
        }
        defer { server.stop() }
        let (status, body, response) = try await send(request(server, "POST", "/dogs.json", headers: ["Accept": "application/json"], body: #"{"name":"foo"}"#))
        #expect(status == 201)
        #expect(body == #"{"ok":true}"#)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(server.hitCount("POST", "/dogs.json") == 1)
        #expect(server.unusedStubs.isEmpty)
        // A different body is not this stub's request.
        let (other, report, headers) = try await send(request(server, "POST", "/dogs.json", headers: ["Accept": "application/json"], body: #"{"name":"bar"}"#))
        #expect(other == 500)
        #expect(headers.value(forHTTPHeaderField: "X-MockServer") == "Unexpected Request")
        #expect(report.contains("The nearest stub, POST /dogs.json, differs in its body"))
        #expect(server.transcript.unmatched.count == 1)
    }

    @Test("endpoints: :params, a shared cache across requests, form and JSON (URLSession)")
    func endpoints() async throws {
        let server = try await start { server in
            server.add(.GET, "/config/:version") { request, cache in
                request.pathParameters.version == "1.0" ? .ok() : .badRequest()
            }
            server.add(.POST, "/login") { request, cache in cache.username = request.formParameters.name; return .ok() }
            server.add(.GET, "/profile") { _, cache in .ok(json: ["username": cache.username]) }
        }
        defer { server.stop() }
        #expect(try await send(request(server, "GET", "/config/1.0")).0 == 200)
        #expect(try await send(request(server, "GET", "/config/2.0")).0 == 400)
        let login = request(server, "POST", "/login", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "name=Ada+L%C3%B6v&x=1")
        #expect(try await send(login).0 == 200)
        let (status, body, response) = try await send(request(server, "GET", "/profile"))
        #expect(status == 200)
        #expect(body == #"{"username":"Ada Löv"}"#)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(server.cache.username as? String == "Ada Löv")
    }

    @Test("request values: headers by any case and as members, query with repeated keys, path components, JSON body")
    func requestValues() async throws {
        struct Dog: Decodable, Sendable { let name: String; let age: Int }
        let server = try await start { server in
            server.add(.POST, "/values/:id") { request, _ in
                let dog = request.decodeBodyJSON(as: Dog.self)
                let json = request.bodyJSON as? [String: Any]
                let parts = [
                    request.method, request.path, request.query,
                    request.headers.accept ?? "-", request.headers["x-TOKEN"] ?? "-",
                    request.queryParameters.values("tag").joined(separator: ","), request.queryParameters.single ?? "-",
                    request.pathComponents.joined(separator: "|"), request.pathParameters.id ?? "-",
                    dog.map { "\($0.name) \($0.age)" } ?? "-", (json?["age"] as? Int).map(String.init) ?? "-",
                    String(request.contentType(is: "application/json")),
                ]
                return .ok(body: parts.joined(separator: ";"))
            }
        }
        defer { server.stop() }
        let (status, body, _) = try await send(request(server, "POST", "/values/42?tag=a&tag=b&single=%20x",
                                                       headers: ["Accept": "text/plain", "X-Token": "t", "Content-Type": "application/json; charset=utf-8"],
                                                       body: #"{"name":"Rex","age":3}"#))
        #expect(status == 200)
        #expect(body == "POST;/values/42;tag=a&tag=b&single=%20x;text/plain;t;a,b; x;/|values|42;42;Rex 3;3;true")
    }

    @Test("the most recently added stub wins; sequences answer in turn and the last repeats")
    func orderAndSequences() async throws {
        let server = try await start { server in
            server.stubRequest("GET", "/flaky").andReturn(200).withBody("default")
            server.stubRequest("GET", "/flaky").andReturn(503).then(503).then(200).withBody("recovered")
        }
        defer { server.stop() }
        var statuses: [Int] = []
        for _ in 0..<4 { statuses.append(try await send(request(server, "GET", "/flaky")).0) }
        #expect(statuses == [503, 503, 200, 200])
        #expect(server.stubs.map(\.hits) == [0, 4])
        #expect(server.unusedStubs.map(\.description) == ["GET /flaky"])
    }

    @Test("bodies: a pattern, structural JSON, a closure; a delay and a reset (curl)", .enabled(if: Tools.hasCurl))
    func bodiesAndFaults() async throws {
        let server = try await start { server in
            try server.stubRequest("POST", "/pattern").withBody(matching: "^id=\\d+$").andReturn(201)
            server.stubRequest("POST", "/json").withJSONBody(#"{"b": [1, 2], "a": {"x": null}}"#).andReturn(202)
            server.stubRequest("POST", "/closure").withBody { $0.count == 3 }.andReturn(203)
            server.stubRequest("GET", "/slow").andReturn(200).withBody("late").withDelay(.milliseconds(200))
            server.stubRequest("GET", "/reset").andReturn(200).withFault(.reset)
        }
        defer { server.stop() }
        func curl(_ arguments: [String]) throws -> Tools.Result {
            try Tools.curl(["-o", "/dev/null", "-w", "%{http_code}"] + arguments)
        }
        let base = "http://127.0.0.1:\(server.port)"
        #expect(try curl(["-d", "id=12", "\(base)/pattern"]).stdout == "201")
        #expect(try curl(["-d", "id=x", "\(base)/pattern"]).stdout == "500")
        #expect(try curl(["-H", "Content-Type: application/json", "-d", #"{"a":{"x":null},"b":[1,2]}"#, "\(base)/json"]).stdout == "202")
        #expect(try curl(["-d", #"{"a":{"x":null},"b":[2,1]}"#, "\(base)/json"]).stdout == "500")
        #expect(try curl(["-d", "abc", "\(base)/closure"]).stdout == "203")
        let started = ContinuousClock.now
        #expect(try curl(["\(base)/slow"]).stdout == "200")
        #expect(ContinuousClock.now - started >= .milliseconds(200))
        #expect(try curl(["\(base)/reset"]).status == 56)
    }

    @Test("a raw response as curl -is prints it, chunked in the capture, is served with its true length")
    func rawResponse() async throws {
        let capture = "HTTP/1.1 100 Continue\r\n\r\nHTTP/2 418 I'm a teapot\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\nContent-Length: 99\r\n\r\nshort and stout"
        let server = try await start { server in
            try server.stubRequest("GET", "/raw").andReturnRawResponse(capture)
        }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        try client.send("GET /raw HTTP/1.1\r\nConnection: close\r\n\r\n")
        let text = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(text == "HTTP/1.1 418 I'm a teapot\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: 15\r\n\r\nshort and stout")
        #expect(throws: StubError.self) { try server.stubRequest("GET", "/bad").andReturnRawResponse("no status line") }
        #expect(throws: StubError.self) { try server.stubRequest("GET", "/bad").andReturnRawResponse("HTTP/1.1 200 OK\r\nX: y") }
    }

    @Test("an unexpected request's 500 shows the request, the stub that answers it and the nearest stub")
    func unexpectedReport() async throws {
        let server = try await start { server in
            server.stubRequest("GET", "/pets").withHeaders(["Accept": "text/html"]).andReturn(200)
        }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        try client.send("GET /pets?kind=cat HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nConnection: close\r\n\r\n")
        let text = String(decoding: try client.readToEnd(), as: UTF8.self)
        let body = try #require(text.components(separatedBy: "\r\n\r\n").last)
        #expect(text.hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"))
        #expect(text.contains("\r\nX-MockServer: Unexpected Request\r\n"))
        #expect(body == """
            MockServer: unexpected request

              GET /pets?kind=cat HTTP/1.1
              Host: x
              Accept: application/json
              Connection: close

            To answer it, add:

              server.stubRequest("GET", "/pets?kind=cat")
                  .withHeaders(["Accept": "application/json"])
                  .andReturn(200)

            The nearest stub, GET /pets, differs in its headers: header Accept: "application/json", not "text/html".

            """)
        #expect(server.unexpectedRequests.map(\.target) == ["/pets?kind=cat"])

        // The snippet, pasted, answers the same request.
        server.stubRequest("GET", "/pets?kind=cat")
            .withHeaders(["Accept": "application/json"])
            .andReturn(200)
        let again = try TestClient(port: server.port)
        try again.send("GET /pets?kind=cat HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nConnection: close\r\n\r\n")
        #expect(String(decoding: try again.readToEnd(), as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
    }

    @Test("keep-alive and pipelining, stubs and endpoints on one connection")
    func pipelining() async throws {
        let server = try await start { server in
            server.stubRequest("GET", "/a").andReturn(200).withBody("a")
            server.add(.GET, "/b/:n") { request, _ in .ok(body: "b" + (request.pathParameters.n ?? "")) }
        }
        defer { server.stop() }
        let port = server.port
        let text = try await offPool {
            let client = try TestClient(port: port)
            try client.send("GET /a HTTP/1.1\r\n\r\nGET /b/2 HTTP/1.1\r\n\r\nGET /a HTTP/1.1\r\nConnection: close\r\n\r\n")
            return String(decoding: try client.readToEnd(), as: UTF8.self)
        }
        #expect(text == "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na" + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nb2"
                + "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\na")
        #expect(server.transcript.entries.filter { if case .connected = $0.event { true } else { false } }.count == 1)
    }

    @Test("pipelined requests keep their order whether a closure answers at once, suspends, or awaits an actor")
    func pipeliningWithSuspendingClosures() async throws {
        actor Counter {
            var value = 0
            func next() -> Int { value += 1; return value }
        }
        let counter = Counter()
        let server = try await start { server in
            server.stubRequest("GET", "/a").andReturn(200).withBody("a")
            server.add(.GET, "/now") { _, _ in .ok(body: "now") }
            server.add(.GET, "/later") { _, _ in
                try await Task.sleep(for: .milliseconds(20))
                return .ok(body: "later")
            }
            server.add(.GET, "/actor") { _, _ in .ok(body: "actor\(await counter.next())") }
        }
        defer { server.stop() }
        let port = server.port
        let text = try await offPool {
            let client = try TestClient(port: port)
            // Everything in one write: the later requests arrive while the first closure sleeps.
            try client.send("GET /later HTTP/1.1\r\n\r\nGET /a HTTP/1.1\r\n\r\nGET /actor HTTP/1.1\r\n\r\n"
                            + "GET /now HTTP/1.1\r\n\r\nGET /later HTTP/1.1\r\n\r\nGET /actor HTTP/1.1\r\nConnection: close\r\n\r\n")
            return String(decoding: try client.readToEnd(), as: UTF8.self)
        }
        let bodies = text.components(separatedBy: "\r\n\r\n").dropFirst().map { $0.prefix { $0 != "H" } }
        #expect(bodies == ["later", "a", "actor1", "now", "later", "actor2"])
        #expect(server.hitCount("GET", "/later") == 2)
    }

    @Test("URLSession PUT of 2 MiB with Expect: 100-continue, and Python requests with a form, JSON and a session")
    func putWithExpectAndRequests() async throws {
        let server = try await start { server in
            server.stubRequest("PUT", "/big").withBody { $0.count == 2 << 20 }.andReturn(201).withBody("stored")
            server.add(.POST, "/form") { request, _ in .ok(body: request.formParameters.values("a").joined(separator: "+")) }
            server.add(.POST, "/json") { request, _ in .ok(json: ["got": (request.bodyJSON as? [String: Any])?["n"] as? Int]) }
        }
        defer { server.stop() }
        var put = URLRequest(url: server.url(for: "/big"))
        put.httpMethod = "PUT"
        put.setValue("100-continue", forHTTPHeaderField: "Expect")
        let (body, response) = try await URLSession(configuration: .ephemeral).upload(for: put, from: Tools.randomBytes(2 << 20, seed: 9))
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(body == Data("stored".utf8))
        #expect(server.transcript.entries.contains { entry in
            if case .output(let bytes) = entry.event { bytes == Array("HTTP/1.1 100 Continue\r\n\r\n".utf8) } else { false }
        })
        guard Tools.hasPython else { return }
        let python = try Tools.python("""
            try:
                import requests
            except ImportError:
                print("no requests module"); raise SystemExit(0)
            with requests.Session() as s:
                print(s.post("http://127.0.0.1:\(server.port)/form", data={"a": ["1", "2"]}).text)
                print(s.post("http://127.0.0.1:\(server.port)/json", json={"n": 7}).json())
                r = s.get("http://127.0.0.1:\(server.port)/nothing")
                print(r.status_code, r.headers["X-MockServer"])
            """)
        #expect(python.stdout == "1+2\n{'got': 7}\n500 Unexpected Request\n" || python.stdout == "no requests module\n", "\(python.stderr)")
        #expect(server.transcript.unmatched.count == (python.stdout.hasPrefix("no requests") ? 0 : 1))
    }

    @Test("a full URL, a pattern over the target, an Encodable body, a body from a file; hang and truncate (curl)", .enabled(if: Tools.hasCurl))
    func targetsAndBodies() async throws {
        struct Dog: Encodable { let name: String; let age: Int }
        let file = try Tools.temporaryDirectory().appendingPathComponent("fixture.txt")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try Data("from a file\n".utf8).write(to: file)
        let server = try await start { server in
            server.stubRequest("GET", "https://api.example.com/v1/dogs?page=2").andReturn(200).withJSON(Dog(name: "Rex", age: 3))
            try server.stubRequest("DELETE", matching: "^/v1/dogs/[0-9]+$").andReturn(204)
            try server.stubRequest("GET", "/fixture").andReturn(200).withBody(contentsOf: file)
            server.stubRequest("GET", "/hang").andReturn(200).withFault(.hang)
            server.stubRequest("GET", "/cut").andReturn(200).withBody(String(repeating: "x", count: 100)).withFault(.truncate(bytes: 40))
        }
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        #expect(try Tools.curl(["\(base)/v1/dogs?page=2"]).stdout == #"{"age":3,"name":"Rex"}"#)
        #expect(try Tools.curl(["-o", "/dev/null", "-w", "%{http_code}", "\(base)/v1/dogs?page=3"]).stdout == "500")
        #expect(try Tools.curl(["-X", "DELETE", "-o", "/dev/null", "-w", "%{http_code}", "\(base)/v1/dogs/17"]).stdout == "204")
        #expect(try Tools.curl(["-X", "DELETE", "-o", "/dev/null", "-w", "%{http_code}", "\(base)/v1/dogs/x"]).stdout == "500")
        #expect(try Tools.curl(["\(base)/fixture"]).stdout == "from a file\n")
        #expect(try Tools.curl(["--max-time", "1", "\(base)/hang"]).status == 28)
        #expect(try Tools.curl(["\(base)/cut"]).status == 18)
        #expect(throws: (any Error).self) { try server.stubRequest("GET", matching: "(") }
    }

    @Test("hitCount counts a stub's own path (its template) or a request's path, escaped or not")
    func hitCounts() async throws {
        let server = try await start { server in
            server.stubRequest("GET", "/v1/blobs/:name").andReturn(200)
            server.stubRequest("GET", "/v1/files/:name").andReturn(200)
        }
        defer { server.stop() }
        for path in ["/v1/blobs/42", "/v1/blobs/43", "/v1/blobs/42", "/v1/files/a%20b"] {
            let client = try TestClient(port: server.port)
            try client.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(try client.readLine() == "HTTP/1.1 200 OK")
        }
        #expect(server.hitCount("GET", "/v1/blobs/:name") == 3)
        #expect(server.hitCount("GET", "/v1/blobs/42") == 2)
        #expect(server.hitCount("get", "/v1/blobs/43") == 1)
        #expect(server.hitCount("GET", "/v1/blobs/44") == 0)
        #expect(server.hitCount("POST", "/v1/blobs/42") == 0)
        #expect(server.hitCount("GET", "/v1/files/a b") == 1)
        #expect(server.hitCount("GET", "/v1/files/a%20b") == 1)
    }

    @Test("a closure that throws is a 500 naming the error")
    func throwingEndpoint() async throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "the fixture is broken" } }
        let server = try await start { server in
            server.add(.GET, "/broken") { _, _ in throw Broken() }
        }
        defer { server.stop() }
        let (status, body, _) = try await send(request(server, "GET", "/broken"))
        #expect(status == 500)
        #expect(body.contains("the fixture is broken"))
        #expect(server.handlerFailures == ["GET /broken threw for GET /broken: the fixture is broken"])
    }

    @Test("curl PUT with Expect: 100-continue, and Python's http.client, against stubs", .enabled(if: Tools.hasCurl && Tools.hasPython))
    func otherClients() async throws {
        let server = try await start { server in
            server.stubRequest("PUT", "/upload").andReturn(204)
            server.stubRequest("GET", "/hello").withHeaders(["X-Client": "python"]).andReturn(200).withBody("hi python")
        }
        defer { server.stop() }
        let file = try Tools.temporaryDirectory().appendingPathComponent("body.bin")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try Tools.randomBytes(2 << 20, seed: 5).write(to: file)
        let curl = try Tools.curl(["-v", "-T", file.path, "-o", "/dev/null", "-w", "%{http_code}",
                                          "http://127.0.0.1:\(server.port)/upload"])
        #expect(curl.stdout == "204", "\(curl.stderr)")
        #expect(curl.stderr.contains("100 Continue"))
        #expect(!curl.stderr.contains("Done waiting for 100-continue"))
        let python = try Tools.python("""
            import http.client
            c = http.client.HTTPConnection("127.0.0.1", \(server.port), timeout=10)
            for _ in range(2):
                c.request("GET", "/hello", headers={"X-Client": "python"}); r = c.getresponse(); print(r.status, r.read().decode())
            """)
        #expect(python.stdout == "200 hi python\n200 hi python\n", "\(python.stderr)")
    }
}
