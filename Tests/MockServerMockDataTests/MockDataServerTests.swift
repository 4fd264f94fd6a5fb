import Foundation
import Testing
import TestSupport
import MockServerResponses
import MockServer
import MockServerMockData
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Mock-data folders served over a real socket to curl, URLSession and raw clients.
@Suite("Mock-data folders", .offPool)
struct MockDataServerTests {
    /// The test target's `VOKMockData` folder (`resources: [.copy("VOKMockData")]`).
    private var fixtures: URL { Bundle.module.url(forResource: "VOKMockData", withExtension: nil)! }

    /// A new folder holding `files` (name → contents).
    private func folder(_ files: [String: String]) throws -> URL {
        let directory = try Tools.temporaryDirectory().appendingPathComponent("VOKMockData")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, contents) in files { try Data(contents.utf8).write(to: directory.appendingPathComponent(name)) }
        return directory
    }

    private func started(_ responder: MockDataResponder) async throws -> MockServer {
        let server = MockServer(httpResponder: responder)
        try await server.start()
        return server
    }

    private func send(_ session: URLSession, _ server: MockServer, _ method: String, _ target: String,
                      contentType: String? = nil, body: String? = nil) async throws -> (Int, [String: String], String) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)\(target)")!)
        request.httpMethod = method
        request.timeoutInterval = 20
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields { headers[String(describing: name).lowercased()] = "\(value)" }
        return (http.statusCode, headers, String(decoding: data, as: UTF8.self))
    }

    @Test("the seed's four requests through URLSession, from files named as seed 000 prints them")
    func seedRequestsURLSession() async throws {
        let responder = try MockDataResponder(folder: fixtures)
        let server = try await started(responder)
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        let query = "one=1&two=2&three=3&four=4&five=5&six=6&seven=7&eight=8&nine=9&ten=10&eleven=11&twelve=12&thirteen=13&fourteen=14"
            + "&fifteen=15&sixteen=16&seventeen=17&eighteen=18&nineteen=19&twenty=20&twentyone=21&twntytwo=22&twentythree=23&twentyfour=24&twentyfive=25"

        let page = try await send(session, server, "GET", "/foo/?page=2")
        #expect(page.0 == 200 && page.1["x-fixture"] == "page 2" && page.2 == #"{"page": 2}"#)

        let details = try await send(session, server, "GET", "/details?\(query)")
        #expect(details.0 == 200 && details.1["content-type"] == "application/json" && details.2 == "{\"details\": \"hashed query\"}\n")

        // The captured file says chunked over a plain body: served plain, with its true length.
        let form = try await send(session, server, "POST", "/login/", contentType: "application/x-www-form-urlencoded; charset=utf-8",
                                  body: "email=user%40example.com&password=password")
        #expect(form.0 == 201)
        #expect(form.1["transfer-encoding"] == nil && form.1["content-length"] == String(form.2.utf8.count))
        #expect(form.2.hasSuffix(#""via": "form"}"#))

        let json = try await send(session, server, "POST", "/login/", contentType: "application/json",
                                  body: #"{"email":"user@example.com","password":"password"}"#)
        #expect(json.0 == 202 && json.2.isEmpty)
        // HEAD is answered from the GET file, without its body.
        let head = try await send(session, server, "HEAD", "/foo/?page=2")
        #expect(head.0 == 200 && head.1["content-length"] == "11" && head.2.isEmpty)
        #expect(responder.misses.isEmpty)
        // The transcript names the file that answered each request.
        let answers = server.transcript.entries.compactMap { entry -> String? in
            if case .input(_, let response) = entry.event { return response }
            return nil
        }
        #expect(answers == ["GET|-foo-?page=2.http", "GET|-details?fb73ef92daa60d3b526724dd5f50738e8477d10e0edcf96ce79794666f6b0c0e.json",
                            "POST|-login-|email=user%40example.com&password=password.http",
                            "POST|-login-|d5-email16-user@example.com8-password8-passworde.http", "GET|-foo-?page=2.http"])
    }

    @Test("the seed's requests through curl, through the mockserver command", .enabled(if: Tools.hasCurl))
    func seedRequestsCurl() throws {
        let command = try RunningCommand(["--mock-data", fixtures.path])
        let port = try #require(command.firstLine.split(separator: ":").last.flatMap { UInt16($0) }, "first line: \(command.firstLine)")
        #expect(command.firstLine == "mockserver listening on 127.0.0.1:\(port)")
        defer { _ = command.terminate() }
        func curl(_ arguments: [String]) throws -> String {
            let result = try Tools.curl(["-w", " %{http_code}"] + arguments)
            return result.stdout
        }
        let base = "http://127.0.0.1:\(port)"
        #expect(try curl(["\(base)/foo/?page=2"]) == #"{"page": 2}"# + " 200")
        let query = (1...25).map { ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
                                    "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "twentyone", "twntytwo",
                                    "twentythree", "twentyfour", "twentyfive"][$0 - 1] + "=\($0)" }.joined(separator: "&")
        #expect(try curl(["\(base)/details?\(query)"]) == "{\"details\": \"hashed query\"}\n 200")
        #expect(try curl(["-H", "Content-Type: application/json", "-d", #"{"password":"password","email":"user@example.com"}"#, "\(base)/login/"]) == " 202")
        #expect(try curl(["-d", "email=user%40example.com&password=password", "\(base)/login/"]).hasSuffix(#""via": "form"} 201"#))
        // Wildcards are off unless asked for.
        #expect(try curl(["\(base)/search?start=2000-01-01"]).hasSuffix(" 404"))
    }

    @Test("mockserver ENDPOINTS --mock-data DIR --allow-wildcards: the endpoints answer first, then the folder (curl)", .enabled(if: Tools.hasCurl))
    func endpointsThenFolder() throws {
        let directory = try folder(["GET|-profile.json": #"{"from": "folder"}"#, "GET|-extra?*.json": #"{"extra": true}"#])
        let endpoints = try #require(BundledResponses.url(named: "endpoints")).path
        let command = try RunningCommand(["--mock-data", directory.path, "--allow-wildcards", endpoints])
        let port = try #require(command.firstLine.split(separator: ":").last.flatMap { UInt16($0) }, "first line: \(command.firstLine)")
        defer { _ = command.terminate() }
        func curl(_ path: String) throws -> String {
            try Tools.curl(["-w", " %{http_code}", "http://127.0.0.1:\(port)\(path)"]).stdout
        }
        #expect(try curl("/profile") == "hi \n 200")
        #expect(try curl("/extra?n=1") == #"{"extra": true} 200"#)
        let miss = try curl("/neither")
        #expect(miss.hasSuffix(" 404") && miss.contains("  GET|-neither.json\n") && miss.contains(#"{"api": "get /neither", "request": {"headers": {"Accept": "*/*"}}, "response": {"status": 200}},"#))
    }

    @Test("the hash names answer when the specific names are missing; a file without a wildcard beats one with")
    func fallbacksAndWildcards() async throws {
        let directory = try folder([
            "POST|-login-|169d720631e603967135cfce10d235e94aac22b87500ea09d1be295f5b300dca.http": "HTTP/1.1 200 OK\n\nform by hash",
            "POST|-login-|236a9780f782b62654f6caf7c4614e47b15800c087a9d43c87c47164617a74f0.json": #"{"json": "by hash"}"#,
            "GET|-search?*.http": "HTTP/1.1 200 OK\n\nany search",
            "GET|-search?start=2017-03-19.json": "\u{FEFF}" + #"{"exact": true}"#,
            "POST|-purchase?*|*.http": "HTTP/1.1 200 OK\n\nany purchase",
            "POST|-purchase?id=7|*.http": "HTTP/1.1 200 OK\n\npurchase 7, any body",
        ])
        let responder = try MockDataResponder(folder: directory, allowsWildcards: true)
        let server = try await started(responder)
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        #expect(try await send(session, server, "POST", "/login/", contentType: "application/x-www-form-urlencoded",
                               body: "email=user%40example.com&password=password").2 == "form by hash")
        #expect(try await send(session, server, "POST", "/login/", contentType: "application/json",
                               body: #"{"email":"user@example.com","password":"password"}"#).2 == #"{"json": "by hash"}"#)
        // The exact .json wins over the wildcard .http: every extension of a name before the next name.
        #expect(try await send(session, server, "GET", "/search?start=2017-03-19").2 == "\u{FEFF}" + #"{"exact": true}"#)
        #expect(try await send(session, server, "GET", "/search?start=1999-12-31").2 == "any search")
        #expect(try await send(session, server, "POST", "/purchase?id=7", contentType: "application/json", body: #"{"at": 1}"#).2 == "purchase 7, any body")
        #expect(try await send(session, server, "POST", "/purchase?id=8", contentType: "application/json", body: #"{"at": 2}"#).2 == "any purchase")
        #expect(responder.misses.isEmpty)
    }

    @Test("a request with no file gets a 404 listing every name tried, in the transcript and the report too")
    func miss() async throws {
        let responder = try MockDataResponder(folder: fixtures, allowsWildcards: true)
        let server = try await started(responder)
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        let (status, headers, body) = try await send(session, server, "POST", "/orders?day=1", contentType: "application/json", body: #"{"n":1}"#)
        let hash = SHA256.hex(of: Array(#"{"n":1}"#.utf8))
        let names = ["POST|-orders?day=1|d1-ni1ee", "POST|-orders?day=1|\(hash)", "POST|-orders?day=1|*",
                     "POST|-orders?*|d1-ni1ee", "POST|-orders?*|\(hash)", "POST|-orders?*|*"].flatMap { [$0 + ".http", $0 + ".json"] }
        #expect(status == 404 && headers["x-mockserver"] == "No Mock Data")
        #expect(body == """
            MockServer: no mock-data file answers POST /orders?day=1

            Files tried, in order, in \(responder.folder.path):
            \(names.map { "  " + $0 }.joined(separator: "\n"))

            Add one of them (the first that exists answers).

            """)
        let miss = try #require(responder.misses.first)
        #expect(responder.misses.count == 1 && miss.triedFileNames == names && miss.text == body)
        let events = server.transcript.entries.map(\.event)
        #expect(events.contains { if case .unmatched(let input) = $0 { input.text.hasPrefix("POST /orders?day=1 ") } else { false } })
        #expect(events.contains { if case .output(let bytes) = $0 { String(decoding: bytes, as: UTF8.self).contains(names.joined(separator: "\n  ")) } else { false } })
    }

    @Test("after the stubs of an HTTPMockServer: endpoints first, then each folder; a miss reports both")
    func afterStubs() async throws {
        let second = try folder(["GET|-only-second.json": "[2]", "GET|-both.json": "[\"second\"]"])
        let stubs = HTTPMockServer()
        stubs.stubRequest("GET", "/foo/?page=2").andReturn(200).withBody("the stub")
        try stubs.addMockData(folder: fixtures)
        try stubs.addMockData(folder: second)
        try await stubs.start()
        defer { stubs.stop() }
        let session = URLSession(configuration: .ephemeral)
        #expect(try await send(session, stubs.server, "GET", "/foo/?page=2").2 == "the stub")
        #expect(try await send(session, stubs.server, "GET", "/only/second").2 == "[2]")
        let missing = try await send(session, stubs.server, "GET", "/neither")
        #expect(missing.0 == 404)
        let report = try #require(stubs.unexpectedRequestReports.first)
        #expect(report.mockDataMisses.map(\.triedFileNames) == [["GET|-neither.http", "GET|-neither.json"], ["GET|-neither.http", "GET|-neither.json"]])
        #expect(report.text == missing.2)
        #expect(report.text.contains("in \(fixtures.resolvingSymlinksInPath().path):") && report.text.contains(#"server.stubRequest("GET", "/neither")"#))
    }

    @Test("no request reads outside the folder: dot segments, encoded slashes, symbolic links out", .enabled(if: Tools.hasCurl))
    func pathSafety() async throws {
        let directory = try folder(["GET|-inside.http": "HTTP/1.1 200 OK\n\ninside"])
        let outside = directory.deletingLastPathComponent()
        // Files a careless lookup would reach: beside the folder, and through links.
        try Data("HTTP/1.1 200 OK\n\nSECRET".utf8).write(to: outside.appendingPathComponent("GET|-secret.http"))
        try Data("HTTP/1.1 200 OK\n\nSECRET".utf8).write(to: outside.appendingPathComponent("secret.http"))
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("GET|-leak.http").path,
                                                   withDestinationPath: outside.appendingPathComponent("GET|-secret.http").path)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("GET|-relative.http").path, withDestinationPath: "../secret.http")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("GET|-alias.http").path, withDestinationPath: "GET|-inside.http")
        let responder = try MockDataResponder(folder: directory)
        #expect(responder.fileNames == ["GET|-alias.http", "GET|-inside.http"])
        let server = try await started(responder)
        defer { server.stop() }
        for target in ["/leak", "/relative", "/../secret", "/..%2Fsecret", "/%2e%2e/secret", "/%2E%2E%2F..%2Fsecret", "/..", "/./../GET|-secret",
                       "/inside/../../secret", "/%00/../secret"] {
            let result = try Tools.curl(["--path-as-is", "-w", " %{http_code}", "http://127.0.0.1:\(server.port)\(target)"])
            // A path that climbs above the root or holds %00 is the parser's 400 (nginx's answer).
            let status = ["/leak", "/relative"].contains(target) ? " 404" : " 400"
            #expect(!result.stdout.contains("SECRET") && result.stdout.hasSuffix(status), "\(target): \(result.stdout)")
        }
        #expect(responder.misses.allSatisfy { miss in miss.triedFileNames.allSatisfy { !$0.contains("/") } })
        let alias = try Tools.curl(["http://127.0.0.1:\(server.port)/alias"])
        #expect(alias.stdout == "inside")
    }

    @Test("files added, edited or broken while serving are seen at once; bad files name their line")
    func liveFolder() async throws {
        let directory = try folder(["GET|-a.json": "[1]"])
        let responder = try MockDataResponder(folder: directory)
        let server = try await started(responder)
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        #expect(try await send(session, server, "GET", "/b").0 == 404)
        try Data("HTTP/1.1 200 OK\n\nnew".utf8).write(to: directory.appendingPathComponent("GET|-b.http"))
        #expect(try await send(session, server, "GET", "/b").2 == "new")
        // The same size and, on a coarse clock, the same time: the inode changes with a replacing write.
        try Data("[2]".utf8).write(to: directory.appendingPathComponent("GET|-a.json"), options: .atomic)
        #expect(try await send(session, server, "GET", "/a").2 == "[2]")
        try Data("HTTP/1.1 200 OK\nX-Good: yes\n{\"body\": 1}\n".utf8).write(to: directory.appendingPathComponent("GET|-a.http"))
        let broken = try await send(session, server, "GET", "/a")
        #expect(broken.0 == 500)
        #expect(broken.2.contains("GET|-a.http:3: \"{\"body\": 1}\" is not a header line"), "\(broken.2)")
        try FileManager.default.removeItem(at: directory.appendingPathComponent("GET|-a.http"))
        try FileManager.default.removeItem(at: directory.appendingPathComponent("GET|-a.json"))
        #expect(try await send(session, server, "GET", "/a").0 == 404)
    }

    @Test("a bad file stops the folder from loading, naming the file, the line and what is wrong", arguments: [
        ("HTTP/1.1 202 Accepted\n", 2, nil, "no blank line ends the headers"),
        ("HTTP/1.1 202 Accepted\r\nA: b\r\n", 3, nil, "no blank line ends the headers"),
        ("HTTP/1.1 200 OK\nContent-Type: text/plain\nhello\n\n", 3, nil, "\"hello\" is not a header line"),
        ("200 OK\n\n", 1, nil, "is not a status line"),
        ("HTTP/1.1 2000 OK\n\n", 1, nil, "no three-digit status code"),
        ("\nHTTP/1.1 200 OK\n\n", 1, nil, "must come first"),
    ] as [(String, Int, Int?, String)])
    func badFiles(contents: String, line: Int, column: Int?, message: String) throws {
        let directory = try folder(["GET|-x.http": contents])
        do {
            _ = try MockDataResponder(folder: directory)
            Issue.record("loaded")
        } catch {
            guard case .malformedFile(let path, let errorLine, let errorColumn, let text) = error else { Issue.record("\(error)"); return }
            #expect(path.hasSuffix("/GET|-x.http") && errorLine == line && errorColumn == column && text.contains(message), "\(error)")
            #expect(error.description.hasPrefix("\(path):\(line): "))
        }
        let json = try folder(["GET|-y.json": "{\n  \"a\": 1,\n}\n"])
        #expect(throws: MockDataError.malformedFile(path: json.resolvingSymlinksInPath().appendingPathComponent("GET|-y.json").path, line: 3, column: 1,
                                                    message: "not JSON: a comma may not come before '}' (JSON allows no trailing comma)")) { try MockDataResponder(folder: json) }
    }

    @Test("a folder that is missing, a file, or not in the bundle is named")
    func unavailableFolders() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/VOKMockData")
        #expect(throws: MockDataError.folderUnavailable(path: missing.path, reason: "it does not exist")) { try MockDataResponder(folder: missing) }
        #expect(throws: MockDataError.notInBundle(name: "NoSuchData", bundlePath: Bundle.module.bundlePath)) {
            try MockDataResponder(named: "NoSuchData", in: .module)
        }
        #expect(try MockDataResponder(named: "VOKMockData", in: .module).fileNames.count == 6)
    }

    @Test("mockserver: --mock-data after an endpoints file, --check of a folder, and its errors")
    func commandLine() throws {
        let directory = try folder(["GET|-x.http": "HTTP/1.1 200 OK\nno colon here\n\n"])
        let check = try Tools.run(Tools.mockserver.path, ["--check", "--mock-data", directory.path])
        #expect(check.status == 65)
        #expect(check.stderr == "\(directory.resolvingSymlinksInPath().path)/GET|-x.http:2: \"no colon here\" is not a header line (Name: value); a blank line must end the headers before the body\n")
        let good = try Tools.run(Tools.mockserver.path, ["--check", "--mock-data", fixtures.path])
        #expect(good.status == 0 && good.stdout.hasSuffix(": OK, 6 mock-data files\n"))
        let wildcardsAlone = try Tools.run(Tools.mockserver.path, ["--allow-wildcards"])
        #expect(wildcardsAlone.status == 64 && wildcardsAlone.stderr.contains("--allow-wildcards needs --mock-data DIR"))
        let withScript = try Tools.run(Tools.mockserver.path, ["--mock-data", fixtures.path, Tools.fixture("Tests/MockServerTests/Fixtures/original-style.json").path])
        #expect(withScript.status == 64 && withScript.stderr.contains("--mock-data combines with an endpoints file"))
        let noFolder = try Tools.run(Tools.mockserver.path, ["--mock-data", "/nonexistent"])
        #expect(noFolder.status == 66 && noFolder.stderr == "mockserver: mock data: cannot use the folder /nonexistent: it does not exist\n")
    }
}
