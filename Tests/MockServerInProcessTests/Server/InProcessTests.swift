import Foundation
import Testing
import TestSupport
import MockServerResponses
import MockServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The same mocks answering URLSession over the socket and in-process: the same status, headers,
/// body, transcript and unexpected-request report.
@Suite("In-process URLProtocol")
struct InProcessTests {
    enum Transport: String, CaseIterable, Sendable {
        case socket, inProcess
    }

    /// What a client saw, and what the server recorded, without what differs by nature (the
    /// `Date` header, connection numbers and peers).
    struct Exchange: Equatable {
        var status: Int
        var headers: [String: String]
        var body: String
        var transcript: [String]
    }

    private func session(_ server: MockServer, _ transport: Transport) throws -> URLSession {
        switch transport {
        case .socket: URLSession(configuration: .ephemeral)
        case .inProcess: try server.makeInProcessSession()
        }
    }

    private func request(_ server: MockServer, _ method: String, _ target: String, headers: [String: String] = [:], body: String? = nil) -> URLRequest {
        TestRequest.make(port: server.port, method, target, headers: headers, body: body, timeout: 10)
    }

    /// Runs `requests` one after another through `transport` and reports what each gave.
    private func run(_ server: MockServer, _ transport: Transport, _ requests: [URLRequest]) async throws -> [Exchange] {
        let session = try session(server, transport)
        var exchanges: [Exchange] = []
        for request in requests {
            let before = server.transcript.entries.count
            // A body that quotes the request (a report, an echo) differs in length with the client's own headers.
            let quotesRequest = request.url?.path == "/missing" || request.url?.path == "/echo"
            let (data, response) = try await session.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                guard let name = name as? String, name.lowercased() != "date", name.lowercased() != "connection", name.lowercased() != "keep-alive" else { continue }
                headers[name.lowercased()] = "\(value)"
            }
            if quotesRequest { headers["content-length"] = nil }
            let transcript = server.transcript.entries.dropFirst(before).compactMap { entry -> String? in
                switch entry.event {
                case .input(let input, let response): "in \(Self.withoutClientHeaders(input.text)) -> \(response ?? "")"
                case .unmatched(let input): "unmatched \(Self.withoutClientHeaders(input.text))"
                case .output(let bytes): "out " + Self.withoutClientHeaders(String(decoding: bytes, as: UTF8.self)).split(separator: "\n").filter { !$0.hasPrefix("Date:") && !(quotesRequest && $0.hasPrefix("Content-Length:")) }.joined(separator: "|")
                default: nil
                }
            }
            exchanges.append(Exchange(status: http.statusCode, headers: headers, body: Self.withoutClientHeaders(String(decoding: data, as: UTF8.self)), transcript: transcript))
        }
        return exchanges
    }

    /// `text` (a request, or a report quoting one) without the header lines a client's HTTP stack
    /// adds on its own, which differ between libcurl, CFNetwork and the in-process path (`Host`
    /// differs by port, as each transport gets its own server), with LF line ends.
    static func withoutClientHeaders(_ text: String) -> String {
        let added = ["host:", "accept-encoding:", "connection:", "user-agent:", "accept-language:", "accept: */*", "content-type:application/x-www-form-urlencoded", "content-length: 0"]
        var lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            let trimmed = line.drop { $0 == " " }.lowercased()
            return !added.contains { trimmed.hasPrefix($0) }
        }
        // A request's header fields come from a dictionary, in no fixed order: sorted here.
        if let first = lines.first, first.hasSuffix("HTTP/1.1"), let blank = lines.firstIndex(of: "") {
            lines[1..<blank].sort()
        }
        return lines.joined(separator: "\n")
    }

    /// Both transports, each against a fresh server made by `make`.
    private func compare(_ make: () throws -> MockServer, _ requests: (MockServer) -> [URLRequest]) async throws -> [Exchange] {
        var results: [Transport: [Exchange]] = [:]
        for transport in Transport.allCases {
            let server = try make()
            try await server.start()
            defer { server.stop() }
            results[transport] = try await run(server, transport, requests(server))
        }
        #expect(results[.socket] == results[.inProcess])
        return results[.inProcess] ?? []
    }

    @Test("stubs, the unexpected-request report and verification are the same over both transports")
    func stubs() async throws {
        var stubServers: [HTTPMockServer] = []
        let exchanges = try await compare({
            let stubs = HTTPMockServer()
            stubs.stubRequest("POST", "/dogs.json").withHeaders(["Accept": "application/json"]).withBody(#"{"name":"foo"}"#)
                .andReturn(201).withHeaders(["Content-Type": "application/json"]).withBody(#"{"ok":true}"#)
            stubs.stubRequest("GET", "/flaky").andReturn(503).then(200).withBody("fine")
            stubServers.append(stubs)
            return stubs.server
        }) { server in
            [request(server, "POST", "/dogs.json", headers: ["Accept": "application/json"], body: #"{"name":"foo"}"#),
             request(server, "GET", "/flaky"), request(server, "GET", "/flaky"),
             request(server, "GET", "/missing?q=1", headers: ["Accept": "text/plain"])]
        }
        #expect(exchanges.map(\.status) == [201, 503, 200, 500])
        #expect(exchanges[0].body == #"{"ok":true}"#)
        #expect(exchanges[3].headers["x-mockserver"] == "Unexpected Request")
        #expect(exchanges[3].body.contains(#"stubRequest("GET", "/missing?q=1")"#))
        for stubs in stubServers {
            #expect(stubs.unexpectedRequests.count == 1)
            #expect(stubs.hitCount("GET", "/flaky") == 2)
            #expect(stubs.unusedStubs.isEmpty)
        }
    }

    @Test("endpoints with path parameters, a form and the cache are the same over both transports")
    func endpoints() async throws {
        let exchanges = try await compare({
            let stubs = HTTPMockServer()
            stubs.add(.GET, "/config/:version") { request, _ in request.pathParameters.version == "1.0" ? .ok(body: "one") : .badRequest() }
            stubs.add(.POST, "/login") { request, cache in
                cache.username = request.formParameters.name
                return .ok()
            }
            stubs.add(.GET, "/profile") { _, cache in .ok(json: ["username": cache.username as? String]) }
            return stubs.server
        }) { server in
            [request(server, "GET", "/config/1.0"), request(server, "GET", "/config/2.0"),
             request(server, "POST", "/login", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "name=ada%20l"),
             request(server, "GET", "/profile")]
        }
        #expect(exchanges.map(\.status) == [200, 400, 200, 200])
        #expect(exchanges[3].body == #"{"username":"ada l"}"#)
    }

    @Test("a mock-data folder answers the same over both transports, misses and stubs in front of it included")
    func mockData() async throws {
        let folder = Tools.fixture("Tests/MockServerMockDataTests/VOKMockData")
        var servers: [HTTPMockServer] = []
        let exchanges = try await compare({
            let stubs = HTTPMockServer()
            stubs.stubRequest("GET", "/stubbed").andReturn(200).withBody("stub")
            try stubs.addMockData(folder: folder, allowsWildcards: true)
            servers.append(stubs)
            return stubs.server
        }) { server in
            [request(server, "GET", "/foo/?page=2"), request(server, "GET", "/stubbed"), request(server, "GET", "/search?start=anything"),
             request(server, "POST", "/login/", headers: ["Content-Type": "application/json"], body: #"{"email":"user@example.com","password":"password"}"#),
             request(server, "POST", "/login/", headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"],
                     body: "email=user%40example.com&password=password"),
             request(server, "GET", "/missing?q=2", headers: ["Accept": "text/plain"])]
        }
        #expect(exchanges.map(\.status) == [200, 200, 202, 202, 201, 404])
        #expect(exchanges[0].transcript.first == "in GET /foo/?page=2 HTTP/1.1\n\n -> GET|-foo-?page=2.http")
        #expect(exchanges[5].body.contains("  GET|-missing?q=2.http\n  GET|-missing?q=2.json\n  GET|-missing?*.http\n  GET|-missing?*.json\n"))
        for stubs in servers { #expect(stubs.unexpectedRequestReports.map { $0.mockDataMisses.count } == [1]) }
    }

    @Test("the bundled http.json and webdav.json scripts answer the same over both transports")
    func bundledScripts() async throws {
        let http = try await compare({ MockServer(responder: try PatternResponder(script: try BundledResponses.script(named: "http"))) }) { server in
            [request(server, "GET", "/", headers: ["Authorization": "Basic dXNlcjpwYXNz"]),
             request(server, "POST", "/form", headers: ["Authorization": "Basic dXNlcjpwYXNz"], body: "a=1"),
             request(server, "DELETE", "/thing", headers: ["Authorization": "Basic dXNlcjpwYXNz"])]
        // (No request without credentials: FoundationNetworking's own HTTP path never finishes a 401 that asks for them.)
        }
        #expect(http.count == 3)
        // One clock for both servers: WebDAV listings and headers carry modification times.
        let clock = MockServer.Configuration(clock: { Date(timeIntervalSince1970: 1_704_110_400) })
        let webdav = try await compare({ MockServer(responder: try PatternResponder(script: try BundledResponses.script(named: "webdav")), configuration: clock) }) { server in
            // With credentials: FoundationNetworking's own HTTP path never finishes a 401 that asks for them.
            [request(server, "PROPFIND", "/", headers: ["Depth": "1", "Content-Type": "application/xml", "Authorization": "Basic dXNlcjpwYXNz"],
                     body: #"<?xml version="1.0"?><propfind xmlns="DAV:"><allprop/></propfind>"#),
             request(server, "PUT", "/new.txt", headers: ["Authorization": "Basic dXNlcjpwYXNz"], body: "fresh"),
             request(server, "GET", "/new.txt", headers: ["Authorization": "Basic dXNlcjpwYXNz"])]
        }
        #expect(webdav.map(\.status).first == 207)
        #expect(webdav.last?.body == "fresh")
    }

    @Test("request targets reach the mock as the URL spells them: percent escapes, queries, no path, a fragment")
    func targets() async throws {
        let exchanges = try await compare({
            let stubs = HTTPMockServer()
            try stubs.stubRequest("GET", matching: "^/").andReturn(200).withBody("seen")
            return stubs.server
        }) { server in
            ["/a%20b/c%3Fd?q=%2F&x=%C3%A9", "/p?x=1#part", "?only=query", "", "/;v=1/%7Euser"].map { request(server, "GET", $0) }
        }
        #expect(exchanges.map(\.status) == [200, 200, 200, 200, 200])
        #expect(exchanges.map { $0.transcript.first ?? "" }.map { $0.split(separator: "\n").first.map(String.init) ?? "" } == [
            "in GET /a%20b/c%3Fd?q=%2F&x=%C3%A9 HTTP/1.1", "in GET /p?x=1 HTTP/1.1", "in GET /?only=query HTTP/1.1",
            "in GET / HTTP/1.1", "in GET /;v=1/%7Euser HTTP/1.1",
        ])
    }

    @Test("https and other hosts are answered in-process; requests for other hosts are left alone")
    func hostsAndSchemes() async throws {
        let stubs = HTTPMockServer()
        stubs.stubRequest("GET", "/v1/me").andReturn(200).withBody("me")
        try await stubs.start()
        defer { stubs.stop() }
        let session = try stubs.makeInProcessSession(hosts: ["api.example.com"])
        let (data, response) = try await session.data(from: URL(string: "https://api.example.com/v1/me")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "me")
        #expect(stubs.server.transcript.entries.contains { if case .connected(let peer) = $0.event { peer == "in-process" } else { false } })
        // A host the session was not given goes to the network, where nothing listens on port 9 of 127.0.0.2.
        var other = URLRequest(url: URL(string: "http://127.0.0.2:9/v1/me")!)
        other.timeoutInterval = 5
        await #expect(throws: (any Error).self) { _ = try await session.data(for: other) }
        #expect(stubs.hitCount("GET", "/v1/me") == 1)
    }

    // FoundationNetworking consults URLSession.shared's own protocol classes (its HTTP protocol
    // first) before any class registered later, so on Linux this works only when the install comes
    // before the process's first use of URLSession: an order a parallel test run cannot promise.
    #if canImport(FoundationNetworking)
    static let sharedSessionIsMockable = false
    #else
    static let sharedSessionIsMockable = true
    #endif

    @Test("URLSession.shared is answered in-process for the installed hosts until uninstalled",
          .enabled(if: sharedSessionIsMockable, "FoundationNetworking asks URLSession.shared's own HTTP protocol first"))
    func sharedSession() async throws {
        let stubs = HTTPMockServer()
        stubs.stubRequest("GET", "/shared").andReturn(200).withBody("shared")
        try await stubs.start()
        defer { stubs.stop() }
        let url = URL(string: "http://shared.mockserver.invalid/shared")!
        try stubs.installInProcessForSharedSession(hosts: ["shared.mockserver.invalid"])
        let (data, _) = try await URLSession.shared.data(from: url)
        #expect(String(decoding: data, as: UTF8.self) == "shared")
        stubs.uninstallInProcessForSharedSession()
        var request = URLRequest(url: url)
        request.timeoutInterval = 10
        // Now the request goes to the network, where the reserved `.invalid` name does not resolve.
        await #expect(throws: (any Error).self) { _ = try await URLSession.shared.data(for: request) }
        #expect(stubs.hitCount("GET", "/shared") == 1)
    }

    @Test("faults map to what a real failure gives URLSession: reset, hang (timeout), truncate, and a pause delays")
    func faults() async throws {
        let stubs = HTTPMockServer()
        stubs.stubRequest("GET", "/reset").andReturn(200).withBody("x").withFault(.reset)
        stubs.stubRequest("GET", "/hang").andReturn(200).withFault(.hang)
        stubs.stubRequest("GET", "/truncate").andReturn(200).withBody(String(repeating: "t", count: 100)).withFault(.truncate(bytes: 30))
        stubs.stubRequest("GET", "/dribble").andReturn(200).withBody(String(repeating: "d", count: 300)).withFault(.dribble(bytesPerSecond: 3000))
        stubs.stubRequest("GET", "/slow").andReturn(200).withBody("slow").withDelay(.milliseconds(200))
        try await stubs.start()
        defer { stubs.stop() }
        let session = try stubs.makeInProcessSession()
        func code(_ path: String, timeout: TimeInterval = 30) async -> URLError.Code? {
            var request = URLRequest(url: stubs.url(for: path))
            request.timeoutInterval = timeout
            do {
                _ = try await session.data(for: request)
                return nil
            } catch {
                return (error as? URLError)?.code
            }
        }
        #expect(await code("/reset") == .networkConnectionLost)
        #expect(await code("/hang", timeout: 0.3) == .timedOut)
        #expect(await code("/truncate") == .networkConnectionLost)
        let (dribbled, _) = try await session.data(from: stubs.url(for: "/dribble"))
        #expect(dribbled.count == 300)
        let clock = ContinuousClock()
        let started = clock.now
        let (slow, _) = try await session.data(from: stubs.url(for: "/slow"))
        #expect(String(decoding: slow, as: UTF8.self) == "slow")
        #expect(clock.now - started >= .milliseconds(200))
    }

    @Test("the configuration's additional headers reach the mock, in name order, unless the request has them")
    func additionalHeaders() async throws {
        let stubs = HTTPMockServer()
        stubs.add(.GET, "/echo") { request, _ in
            .ok(body: request.headers.fields.filter { $0.name.hasPrefix("X-") }.map { "\($0.name)=\($0.value)" }.joined(separator: ","))
        }
        try await stubs.start()
        defer { stubs.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["X-B": "2", "X-A": "1", "X-Own": "extra"]
        let session = try stubs.makeInProcessSession(configuration: configuration)
        var request = URLRequest(url: stubs.url(for: "/echo"))
        request.setValue("mine", forHTTPHeaderField: "x-own")
        let (body, _) = try await session.data(for: request)
        #expect(String(decoding: body, as: UTF8.self) == "X-Own=mine,X-A=1,X-B=2")
    }

    @Test("a cancelled task cancels the mock's pending closure")
    func cancellation() async throws {
        let stubs = HTTPMockServer()
        let (events, continuation) = AsyncStream<String>.makeStream()
        stubs.add(.GET, "/slow") { _, _ in
            continuation.yield("entered")
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                continuation.yield("cancelled")
                throw error
            }
            return .ok()
        }
        try await stubs.start()
        defer { stubs.stop() }
        let session = try stubs.makeInProcessSession()
        let task = session.dataTask(with: stubs.url(for: "/slow"))
        task.resume()
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "entered")
        task.cancel()
        // The time allowed is counted from the cancel, not from "entered": tests that block
        // threads of Swift's cooperative pool (synchronous curl runs, blocking reads) can hold this
        // test's resumption back for many seconds on a two-core machine, while the closure, on the
        // mock's loop, sleeps on. The cancel itself travels on FoundationNetworking's queues and
        // the loop's thread, never through the pool, so 30 s from here is never too short.
        let deadline = Task {
            try await Task.sleep(for: .seconds(30))
            continuation.yield("no cancel reached the closure within 30 s of task.cancel()")
        }
        defer { deadline.cancel() }
        #expect(await iterator.next() == "cancelled")
        try await stubs.server.transcript.wait(for: "the connection closed by the client") { if case .closed(.peerVanished) = $0.event { true } else { false } }
    }

    @Test("redirects are followed, Set-Cookie is stored and sent back, HEAD and 204 carry no body")
    func redirectsCookiesAndEmptyBodies() async throws {
        let stubs = HTTPMockServer()
        stubs.stubRequest("POST", "/old").andReturn(302).withHeaders(["Location": "/new"])
        stubs.stubRequest("GET", "/new").andReturn(200).withBody("new")
        stubs.stubRequest("GET", "/login").andReturn(200).withHeaders(["Set-Cookie": "session=abc; Path=/"])
        stubs.stubRequest("GET", "/private").withHeaders(["Cookie": "session=abc"]).andReturn(200).withBody("welcome")
        stubs.stubRequest("HEAD", "/file").andReturn(200).withBody("content")
        stubs.stubRequest("GET", "/none").andReturn(204)
        try await stubs.start()
        defer { stubs.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        let session = try stubs.makeInProcessSession(configuration: configuration)
        var post = URLRequest(url: stubs.url(for: "/old"))
        post.httpMethod = "POST"
        post.httpBody = Data("x".utf8)
        let (redirected, response) = try await session.data(for: post)
        #expect(String(decoding: redirected, as: UTF8.self) == "new")
        #expect(response.url?.path == "/new")
        _ = try await session.data(from: stubs.url(for: "/login"))
        #expect(configuration.httpCookieStorage?.cookies(for: stubs.url(for: "/"))?.first?.value == "abc")
        let (welcome, _) = try await session.data(from: stubs.url(for: "/private"))
        #expect(String(decoding: welcome, as: UTF8.self) == "welcome")
        var head = URLRequest(url: stubs.url(for: "/file"))
        head.httpMethod = "HEAD"
        let (headBody, headResponse) = try await session.data(for: head)
        #expect(headBody.isEmpty && (headResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Length") == "7")
        let (none, noneResponse) = try await session.data(from: stubs.url(for: "/none"))
        #expect(none.isEmpty && (noneResponse as? HTTPURLResponse)?.statusCode == 204)
    }

    @Test("upload(for:from:) and a body stream reach the mock; download(for:) as the platform allows")
    func uploadAndDownload() async throws {
        let stubs = HTTPMockServer()
        stubs.add(.PUT, "/up") { request, _ in .ok(body: "got \(request.body.count)") }
        stubs.stubRequest("GET", "/file").andReturn(200).withBody("file")
        try await stubs.start()
        defer { stubs.stop() }
        let session = try stubs.makeInProcessSession()
        var put = URLRequest(url: stubs.url(for: "/up"))
        put.httpMethod = "PUT"
        let (uploaded, _) = try await session.upload(for: put, from: Data(count: 5000))
        #expect(String(decoding: uploaded, as: UTF8.self) == "got 5000")
        put.httpBodyStream = InputStream(data: Data(count: 700))
        let (streamed, _) = try await session.data(for: put)
        #expect(String(decoding: streamed, as: UTF8.self) == "got 700")
        #if canImport(FoundationNetworking)
        await #expect(throws: URLError.self) { _ = try await session.download(for: URLRequest(url: stubs.url(for: "/file"))) }
        #else
        let (location, _) = try await session.download(for: URLRequest(url: stubs.url(for: "/file")))
        #expect(try String(contentsOf: location, encoding: .utf8) == "file")
        #endif
    }

    @Test("a stopped server's session fails with cannotConnectToHost; a line script has no in-process session")
    func misuse() async throws {
        let stubs = HTTPMockServer()
        #expect(throws: MockServerError.notRunning) { _ = try stubs.makeInProcessSession() }
        try await stubs.start()
        let session = try stubs.makeInProcessSession()
        await stubs.stop()
        do {
            _ = try await session.data(from: stubs.url(for: "/"))
            Issue.record("a stopped server's session answered")
        } catch {
            #expect((error as? URLError)?.code == .cannotConnectToHost)
        }
        let line = MockServer(responder: PatternResponder([]))
        try await line.start()
        defer { line.stop() }
        #expect(throws: MockServerError.notHTTP) { _ = try line.makeInProcessSession() }
    }

    // 40, not more: each mock's loop and listener are descriptors of this process, and the test runs
    // beside every other suite (README, platform notes: Foundation's Process and 1,350 descriptors).
    @Test("40 mocks in parallel for the same host never see each other", arguments: 0..<40)
    func isolation(number: Int) async throws {
        let stubs = HTTPMockServer()
        stubs.stubRequest("GET", "/who").andReturn(200).withBody("\(number)")
        try await stubs.start()
        defer { stubs.stop() }
        let session = try stubs.makeInProcessSession(hosts: ["api.example.com"])
        for _ in 0..<3 {
            let (data, _) = try await session.data(from: URL(string: "https://api.example.com/who")!)
            #expect(String(decoding: data, as: UTF8.self) == "\(number)")
        }
        #expect(stubs.hitCount("GET", "/who") == 3)
        #expect(stubs.server.transcript.entries.filter { if case .input = $0.event { true } else { false } }.count == 3)
    }
}

