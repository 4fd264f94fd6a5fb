import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
import MockServer
import MockServerRecording

/// `HTTPRecorder` in Swift: in front of another server of this package, or of nothing.
@Suite("Recording HTTP: HTTPRecorder", .offPool)
struct HTTPRecorderTests {
    private var fixtures: URL { Tools.fixture("Tests/MockServerMockDataTests/VOKMockData") }

    private func send(_ port: UInt16, _ method: String, _ target: String, contentType: String? = nil, body: String? = nil,
                      headers: [String: String] = [:]) async throws -> (Int, [String: String], String) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(target)")!)
        request.httpMethod = method
        request.timeoutInterval = 20
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields[String(describing: name).lowercased()] = "\(value)" }
        return (http.statusCode, fields, String(decoding: data, as: UTF8.self))
    }

    @Test("the seed's four requests, sent through the recorder to a server that answers them, are written under the seed's names")
    func seedNames() async throws {
        let upstream = MockServer(httpResponder: try MockDataResponder(folder: fixtures))
        try await upstream.start()
        defer { upstream.stop() }
        let folder = try Tools.temporaryDirectory().appendingPathComponent("Recorded")
        // The seed's password is its name's point: only headers are masked here.
        let recorder = try HTTPRecorder(upstream: upstream.url(for: "/"), destination: .mockData(folder: folder),
                                        mask: HTTPRecorder.Mask(headers: HTTPRecorder.Mask.standard.headers))
        let proxy = MockServer(httpResponder: recorder)
        try await proxy.start()
        defer { proxy.stop() }
        let query = "one=1&two=2&three=3&four=4&five=5&six=6&seven=7&eight=8&nine=9&ten=10&eleven=11&twelve=12&thirteen=13&fourteen=14"
            + "&fifteen=15&sixteen=16&seventeen=17&eighteen=18&nineteen=19&twenty=20&twentyone=21&twntytwo=22&twentythree=23&twentyfour=24&twentyfive=25"
        let page = try await send(proxy.port, "GET", "/foo/?page=2")
        #expect(page.0 == 200 && page.1["x-fixture"] == "page 2" && page.2 == #"{"page": 2}"#)
        _ = try await send(proxy.port, "GET", "/details?\(query)")
        _ = try await send(proxy.port, "POST", "/login/", contentType: "application/x-www-form-urlencoded; charset=utf-8",
                           body: "email=user%40example.com&password=password")
        let json = try await send(proxy.port, "POST", "/login/", contentType: "application/json", body: #"{"email":"user@example.com","password":"password"}"#)
        #expect(json.0 == 202)
        let seedBaseNames = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { !$0.contains("*") }
            .map { $0.replacingOccurrences(of: ".json", with: "").replacingOccurrences(of: ".http", with: "") }
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(Set(written) == Set(seedBaseNames.filter { !$0.contains("start=") }.map { $0 + ".http" }))
        #expect(recorder.statistics.recorded == 4)
        // The transcript shows both sides: the upstream connection's answer and each file written.
        let notes = proxy.transcript.entries.compactMap { entry -> Transcript.Note? in
            if case .note(let note) = entry.event { return note }
            return nil
        }
        #expect(notes.filter { $0.kind == "recorded" }.count == 4)
        #expect(notes.contains { $0.kind == "upstream-response" && $0.text.hasPrefix("<- 200") })
    }

    @Test("an upstream that refuses gets the client a 502 naming it, and nothing is written")
    func refused() async throws {
        let folder = try Tools.temporaryDirectory().appendingPathComponent("Recorded")
        let recorder = try HTTPRecorder(upstream: URL(string: "http://127.0.0.1:1")!, destination: .mockData(folder: folder))
        let proxy = MockServer(httpResponder: recorder)
        try await proxy.start()
        defer { proxy.stop() }
        let answer = try await send(proxy.port, "GET", "/anything")
        #expect(answer.0 == 502)
        #expect(answer.2.hasPrefix("MockServer: cannot connect to the upstream 127.0.0.1:1: connect(127.0.0.1:1): Connection refused"), "\(answer.2)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(recorder.statistics.failed == 1)
        #expect(proxy.transcript.entries.contains { if case .note(let note) = $0.event { note.kind == "upstream-failed" } else { false } })
    }

    @Test("a client that goes away before the upstream answers: the exchange is counted as failed and noted, nothing is written")
    func clientGone() async throws {
        let silent = MockServer(responder: PatternResponder([try ResponseEntry("hold", pattern: ".*", commands: [.pause(.seconds(60))])]))
        try await silent.start()
        defer { silent.stop() }
        let folder = try Tools.temporaryDirectory().appendingPathComponent("Recorded")
        // Only the client's going away may end the exchange: with the default 30 s, the upstream's
        // timeout came first in a full run whose test tasks all stalled for a minute (this one's
        // resumption after its first wait among them), and the note rightly named the timeout.
        let recorder = try HTTPRecorder(upstream: URL(string: "http://127.0.0.1:\(silent.port)")!, destination: .mockData(folder: folder),
                                        timeout: .seconds(3600))
        let proxy = MockServer(httpResponder: recorder)
        try await proxy.start()
        defer { proxy.stop() }
        let client = try TestClient(port: proxy.port)
        try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        // The request has reached the upstream before the client vanishes.
        try await silent.transcript.wait(for: "the forwarded request") { if case .input = $0.event { true } else { false } }
        client.reset()
        let note = try await proxy.transcript.wait(for: "an upstream-failed note") { entry in
            if case .note(let note) = entry.event { note.kind == "upstream-failed" } else { false }
        }
        guard case .note(let text) = note.event else { return }
        #expect(text.text == "no upstream exchange: the client went away")
        #expect(recorder.statistics.failed == 1 && recorder.statistics.recorded == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("an upstream that never answers gets the client a 502 once the timeout passes")
    func timeout() async throws {
        let silent = MockServer(responder: PatternResponder([try ResponseEntry("hold", pattern: ".*", commands: [.pause(.seconds(60))])]))
        try await silent.start()
        defer { silent.stop() }
        let folder = try Tools.temporaryDirectory().appendingPathComponent("Recorded")
        let recorder = try HTTPRecorder(upstream: URL(string: "http://127.0.0.1:\(silent.port)")!, destination: .mockData(folder: folder), timeout: .milliseconds(300))
        let proxy = MockServer(httpResponder: recorder)
        try await proxy.start()
        defer { proxy.stop() }
        let answer = try await send(proxy.port, "GET", "/slow")
        #expect(answer.0 == 502)
        #expect(answer.2 == "MockServer: the upstream 127.0.0.1:\(silent.port) did not answer within 0.3 s\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// An upstream connection watches the deadline of the exchange under way with one timer at a
    /// time (not one per request), moved on to the next exchange's deadline when the one it was set
    /// for was answered in time.
    @Test("on an upstream connection kept alive after one answer, the next request it never answers gets a 502 at the timeout")
    func timeoutOnReusedConnection() async throws {
        let upstream = MockServer(httpResponder: AnswersOnlyFast())
        try await upstream.start()
        defer { upstream.stop() }
        let recorder = try HTTPRecorder(upstream: upstream.url(for: "/"), destination: .endpoints(file: try Tools.temporaryDirectory().appendingPathComponent("e.json")),
                                        timeout: .milliseconds(300))
        let proxy = MockServer(httpResponder: recorder)
        try await proxy.start()
        defer { proxy.stop() }
        #expect(try await send(proxy.port, "GET", "/fast").0 == 200)
        let slow = try await send(proxy.port, "GET", "/slow")
        #expect(slow.0 == 502)
        #expect(slow.2 == "MockServer: the upstream 127.0.0.1:\(upstream.port) did not answer within 0.3 s\n")
        // Both went on the one upstream connection.
        #expect(upstream.transcript.entries.filter { if case .connected = $0.event { true } else { false } }.count == 1)
    }

    @Test("an upstream that closes without an answer gets the client a 502 that says so")
    func closesWithoutAnswer() async throws {
        let closing = MockServer(responder: PatternResponder([try ResponseEntry("close", pattern: ".*", commands: [.close])]))
        try await closing.start()
        defer { closing.stop() }
        let recorder = try HTTPRecorder(upstream: URL(string: "http://127.0.0.1:\(closing.port)")!, destination: .endpoints(file: try Tools.temporaryDirectory().appendingPathComponent("e.json")))
        let proxy = MockServer(httpResponder: recorder)
        try await proxy.start()
        defer { proxy.stop() }
        let answer = try await send(proxy.port, "GET", "/gone")
        #expect(answer.0 == 502)
        #expect(answer.2.hasPrefix("MockServer: the upstream 127.0.0.1:\(closing.port) gave no usable response"), "\(answer.2)")
    }

    @Test("masking: Authorization, Cookie and Set-Cookie by default, more headers and JSON fields by option; the client still gets the real values")
    func masking() async throws {
        let upstream = HTTPMockServer()
        upstream.stubRequest("POST", "/session").andReturn(201)
            .withHeaders(["Set-Cookie": "sid=SECRET-SID", "X-Api-Key": "SECRET-KEY", "Content-Type": "application/json"])
            .withBody(#"{"access": {"token": "SECRET-TOKEN"}, "user": "ann"}"#)
        try await upstream.start()
        defer { upstream.stop() }
        let folder = try Tools.temporaryDirectory().appendingPathComponent("Recorded")
        var mask = HTTPRecorder.Mask.standard
        mask.headers.append("X-Api-Key")
        mask.jsonFields = ["token", "password"]
        let recorder = try HTTPRecorder(upstream: upstream.url(for: "/"), destination: .mockData(folder: folder), mask: mask)
        let proxy = MockServer(httpResponder: recorder)
        try await proxy.start()
        defer { proxy.stop() }
        let answer = try await send(proxy.port, "POST", "/session", contentType: "application/json", body: #"{"user": "ann", "password": "SECRET-PASSWORD"}"#,
                                    headers: ["Authorization": "Bearer SECRET-BEARER", "Cookie": "a=SECRET-COOKIE"])
        #expect(answer.0 == 201 && answer.1["x-api-key"] == "SECRET-KEY" && answer.2.contains("SECRET-TOKEN"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count == 1)
        var written = names.joined()
        for name in names { written += String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self) }
        #expect(!written.contains("SECRET"), "\(written)")
        #expect(written.contains("Set-Cookie: MASKED") && written.contains("X-Api-Key: MASKED") && written.contains(#""token":"MASKED""#))
        // The secret body is named by its hash, which the replay finds (the last name searched).
        let replay = MockServer(httpResponder: try MockDataResponder(folder: folder))
        try await replay.start()
        defer { replay.stop() }
        let again = try await send(replay.port, "POST", "/session", contentType: "application/json", body: #"{"user": "ann", "password": "SECRET-PASSWORD"}"#)
        #expect(again.0 == 201 && again.2 == #"{"access":{"token":"MASKED"},"user":"ann"}"#)
    }

    @Test("an upstream's trailers reach the client through the recorder and are kept in the endpoints fixture, which replays them")
    func trailers() async throws {
        let upstream = HTTPMockServer()
        upstream.stubRequest("POST", "/shop.Items/Get").andReturnGRPC([Data([0x08, 0x07])], status: 0)
        try await upstream.start()
        defer { upstream.stop() }
        let file = try Tools.temporaryDirectory().appendingPathComponent("recorded.json")
        let recorder = try HTTPRecorder(upstream: upstream.url(for: "/"), destination: .endpoints(file: file))
        let proxy = MockServer(httpResponder: recorder)
        try await proxy.start()
        defer { proxy.stop() }
        let call = ["--raw", "-X", "POST", "-H", "Content-Type: application/grpc", "--data-binary", "", "http://127.0.0.1:%d/shop.Items/Get"]
        let through = try Tools.curl(call.map { $0.replacingOccurrences(of: "%d", with: String(proxy.port)) })
        #expect(through.stdout.hasSuffix("0\r\ngrpc-status: 0\r\n\r\n"), "\(through.stdout)")
        try recorder.flush()
        let written = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(written.contains(#""trailers": { "grpc-status": "0" }"#), "\(written)")
        let replay = HTTPMockServer()
        try replay.addEndpoints(contentsOf: file)
        try await replay.start()
        defer { replay.stop() }
        let replayed = try Tools.curl(call.map { $0.replacingOccurrences(of: "%d", with: String(replay.port)) })
        #expect(replayed.stdout == through.stdout, "\(replayed.stdout)")
    }

    @Test("a HEAD answer keeps the upstream's Content-Length for the client, and neither a mock-data file nor an endpoint records it")
    func headKeepsLengthForTheClientOnly() async throws {
        let upstream = HTTPMockServer()
        try upstream.stubRequest("HEAD", matching: "^/").andReturn(200).withHeaders(["X-Kept": "yes"]).withBody("upstream\n")
        try await upstream.start()
        defer { upstream.stop() }
        let direct = try Tools.curl(["-s", "-I", "http://127.0.0.1:\(upstream.port)/h"])
        #expect(direct.stdout.lowercased().contains("content-length: 9\r\n"), "\(direct.stdout)")
        let folder = try Tools.temporaryDirectory().appendingPathComponent("Recorded")
        let file = try Tools.temporaryDirectory().appendingPathComponent("recorded.json")
        for destination in [HTTPRecorder.Destination.mockData(folder: folder), .endpoints(file: file)] {
            let recorder = try HTTPRecorder(upstream: upstream.url(for: "/"), destination: destination)
            let proxy = MockServer(httpResponder: recorder)
            try await proxy.start()
            defer { proxy.stop() }
            let through = try Tools.curl(["-s", "-I", "http://127.0.0.1:\(proxy.port)/h"])
            #expect(through.stdout.lowercased().contains("content-length: 9\r\n"), "\(through.stdout)")
            #expect(through.stdout.contains("X-Kept: yes\r\n"), "\(through.stdout)")
            try recorder.flush()
            #expect(recorder.statistics.recorded == 1)
        }
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".http") }
        #expect(written.count == 1)
        let recordedFile = String(decoding: try Data(contentsOf: folder.appendingPathComponent(written.first ?? "")), as: UTF8.self)
        #expect(recordedFile.contains("X-Kept: yes\r\n") && !recordedFile.lowercased().contains("content-length"), "\(recordedFile)")
        let endpoints = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(endpoints.contains(#""X-Kept": "yes""#) && !endpoints.lowercased().contains("content-length"), "\(endpoints)")
    }

    /// An upstream that answers each GET with fixed bytes, keeping the connection: `/named` with a
    /// `Connection` field naming `X-Private`, any other path with hop-by-hop fields only named
    /// by their own names; both with a masked field, a location on the upstream and clock fields.
    /// `/closing` gets `Connection: close` and a field called `Close`, which that field names
    /// (RFC 9110 §7.6.1), and then the connection closes.
    static let rawUpstream = """
        import socket, sys, threading
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        port = listener.getsockname()[1]
        print(port, flush=True)
        def serve(connection):
            data = b""
            while True:
                while b"\\r\\n\\r\\n" not in data:
                    piece = connection.recv(65536)
                    if not piece:
                        connection.close()
                        return
                    data += piece
                head, data = data.split(b"\\r\\n\\r\\n", 1)
                location = b"Location: http://127.0.0.1:%d/next\\r\\n" % port
                if head.split(b" ")[1] == b"/closing":
                    connection.sendall(b"HTTP/1.1 200 OK\\r\\nServer: raw\\r\\nConnection: close\\r\\nClose: hop\\r\\nX-Kept: 1\\r\\nContent-Length: 2\\r\\n\\r\\nok")
                    connection.close()
                    return
                elif head.split(b" ")[1] == b"/named":
                    connection.sendall(b"HTTP/1.1 200 OK\\r\\nServer: raw\\r\\ndate: Thu, 01 Jan 2026 00:00:00 GMT\\r\\nConnection: keep-alive, X-Private\\r\\n"
                        + b"X-Private: hop\\r\\nSet-Cookie: sid=SECRET\\r\\n" + location + b"Content-Length: 2\\r\\nX-Kept: 1\\r\\n\\r\\nok")
                else:
                    connection.sendall(b"HTTP/1.1 200 OK\\r\\nServer: raw\\r\\nDate: Thu, 01 Jan 2026 00:00:00 GMT\\r\\nconnection: keep-alive\\r\\n"
                        + b"Keep-Alive: timeout=5\\r\\nset-cookie: sid=SECRET\\r\\n" + location + b"Transfer-Encoding: chunked\\r\\nX-Private: kept\\r\\n\\r\\n2\\r\\nok\\r\\n0\\r\\n\\r\\n")
        while True:
            connection, _ = listener.accept()
            threading.Thread(target=serve, args=(connection,), daemon=True).start()
        """

    @Test("an upstream's hop-by-hop fields, and those its Connection field names, reach neither the client nor the recording; a location comes back relative; the client gets the real cookie, the files a masked one",
          .enabled(if: Tools.hasPython))
    func answerFields() async throws {
        let upstream = try PythonServer(Self.rawUpstream)
        defer { upstream.stop() }
        let folder = try Tools.temporaryDirectory().appendingPathComponent("Recorded")
        let file = try Tools.temporaryDirectory().appendingPathComponent("recorded.json")
        let wanted = [
            "/named": "Server: raw\r\ndate: Thu, 01 Jan 2026 00:00:00 GMT\r\nSet-Cookie: sid=SECRET\r\nLocation: /next\r\nX-Kept: 1\r\n",
            "/plain": "Server: raw\r\nDate: Thu, 01 Jan 2026 00:00:00 GMT\r\nset-cookie: sid=SECRET\r\nLocation: /next\r\nX-Private: kept\r\n",
            // `Connection: close` names a field called `Close`: it goes too.
            "/closing": "Server: raw\r\nX-Kept: 1\r\n",
        ]
        for destination in [HTTPRecorder.Destination.mockData(folder: folder), .endpoints(file: file)] {
            let recorder = try HTTPRecorder(upstream: URL(string: "http://127.0.0.1:\(upstream.port)")!, destination: destination)
            let proxy = MockServer(httpResponder: recorder)
            try await proxy.start()
            defer { proxy.stop() }
            for (path, fields) in wanted.sorted(by: { $0.key < $1.key }) {
                let client = try TestClient(port: proxy.port)
                try client.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                let answer = String(decoding: try client.readToEnd(), as: UTF8.self)
                #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n" + fields), "\(answer)")
                #expect(answer.hasSuffix("\r\n\r\nok") && !answer.contains("eep-Alive") && !answer.contains("hop") && !answer.contains("chunked"), "\(answer)")
            }
            try recorder.flush()
            #expect(recorder.statistics.recorded == 3)
        }
        for (path, fields) in wanted {
            let name = "GET|-\(path.dropFirst()).http"
            let written = String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
            let masked = fields.replacingOccurrences(of: "sid=SECRET", with: "MASKED")
            #expect(written == "HTTP/1.1 200 OK\r\n" + masked + "Content-Length: 2\r\n\r\nok", "\(written)")
        }
        let endpoints = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(endpoints.contains(#"{ "api": "get /named", "response": { "status": 200, "headers": { "Server": "raw", "date": "Thu, 01 Jan 2026 00:00:00 GMT", "Set-Cookie": "MASKED", "Location": "/next", "X-Kept": "1" }, "body": "ok" } }"#), "\(endpoints)")
        #expect(endpoints.contains(#"{ "api": "get /plain", "response": { "status": 200, "headers": { "Server": "raw", "Date": "Thu, 01 Jan 2026 00:00:00 GMT", "set-cookie": "MASKED", "Location": "/next", "X-Private": "kept" }, "body": "ok" } }"#), "\(endpoints)")
    }

    @Test("bad upstreams are refused with what is wrong", arguments: [
        ("gopher://127.0.0.1:70", "the scheme must be http, https or h2c"),
        ("ftp://127.0.0.1", "the scheme must be http, https or h2c"),
        ("http://127.0.0.1:8080/?q=1", "no query"),
        ("http://no-such-host.invalid:80", "getaddrinfo"),
    ])
    func badUpstreams(url: String, reason: String) throws {
        do {
            _ = try HTTPUpstream(url: URL(string: url)!)
            Issue.record("\(url) accepted")
        } catch {
            #expect("\(error)".contains(reason), "\(error)")
            #expect("\(error)".hasPrefix("upstream \(url): "))
        }
    }

    @Test("a base path is put before each request's path, and a Location on the upstream comes back relative")
    func basePath() async throws {
        let upstream = HTTPMockServer()
        try await upstream.start()
        defer { upstream.stop() }
        upstream.stubRequest("GET", "/api/v1/items").andReturn(302).withHeaders(["Location": "http://127.0.0.1:\(upstream.port)/api/v1/items/"])
        let recorder = try HTTPRecorder(upstream: upstream.url(for: "/api/v1/"), destination: .mockData(folder: try Tools.temporaryDirectory()))
        #expect(recorder.upstream.basePath == "/api/v1")
        let proxy = MockServer(httpResponder: recorder)
        try await proxy.start()
        defer { proxy.stop() }
        let client = try TestClient(port: proxy.port)
        try client.send("GET /items HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let text = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 302 Found\r\n") && text.contains("\r\nLocation: /items/\r\n"), "\(text)")
    }

    @Test("in-process: an app's URLSession for api.example.test goes through the recorder to the real server, and the files replay it in-process")
    func inProcessRecording() async throws {
        let upstream = HTTPMockServer()
        upstream.stubRequest("GET", "/v1/me").andReturn(200)
            .withHeaders(["Content-Type": "application/json", "Set-Cookie": "session=SECRET-SESSION"])
            .withBody(#"{"name":"Ada"}"#)
        upstream.stubRequest("POST", "/v1/notes").andReturn(201).withBody("made\n")
        try await upstream.start()
        let folder = try Tools.temporaryDirectory().appendingPathComponent("VOKMockData")
        let recorder = try HTTPRecorder(upstream: upstream.url(for: "/"), destination: .mockData(folder: folder))
        let proxy = MockServer(httpResponder: recorder)
        try await proxy.start()
        // The app's session: its requests to the API's host are answered in-process by the recorder.
        let app = try proxy.makeInProcessSession(hosts: ["api.example.test"])
        let (me, response) = try await app.data(from: URL(string: "http://api.example.test/v1/me")!)
        #expect(me == Data(#"{"name":"Ada"}"#.utf8) && (response as? HTTPURLResponse)?.statusCode == 200)
        var post = URLRequest(url: URL(string: "http://api.example.test/v1/notes")!)
        post.httpMethod = "POST"
        post.httpBody = Data("note=hi".utf8)
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let (made, _) = try await app.data(for: post)
        #expect(made == Data("made\n".utf8))
        await proxy.stop()
        await upstream.stop()
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(names == ["GET|-v1-me.http", "POST|-v1-notes|note=hi.http"])
        #expect(!(try String(contentsOf: folder.appendingPathComponent("GET|-v1-me.http"), encoding: .utf8)).contains("SECRET"))

        // Replay, in-process as well, with the API gone.
        let replay = MockServer(httpResponder: try MockDataResponder(folder: folder))
        try await replay.start()
        defer { replay.stop() }
        let session = try replay.makeInProcessSession(hosts: ["api.example.test"])
        let (again, _) = try await session.data(from: URL(string: "http://api.example.test/v1/me")!)
        #expect(again == me)
        let (madeAgain, _) = try await session.data(for: post)
        #expect(madeAgain == made)
    }
}

/// Answers `/fast` at once and never answers anything else.
private struct AnswersOnlyFast: HTTPMockResponder {
    func respond(to request: HTTPMockRequest, context: HTTPRequestContext) async throws -> HTTPReply? {
        guard request.path == "/fast" else {
            try await Task.sleep(for: .seconds(60))
            return nil
        }
        return HTTPReply(HTTPMockResponse(status: 200, body: Array("fast\n".utf8)))
    }
}
