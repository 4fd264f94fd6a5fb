import Foundation
import MockServer
import MockServerResponses
import MockServerTesting
import TestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Swift Testing helpers at work (the README's own examples are in Tests/ReadmeSnippets).
@Suite("Swift Testing helpers", .offPool)
struct SwiftTestingExamples {
    // An upload with curl, awaited by name.
    // curl runs through TestSupport's posix_spawn, not Foundation's Process: see README's platform notes.
    @Test(.enabled(if: Tools.hasCurl))
    func uploadsWithCurl() async throws {
        try await withMockServer(responses: "ftp") { server in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString).txt")
            try Data("uploaded by curl\n".utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let curl = try Tools.curl(["-T", file.path, server.url(for: "notes.txt").absoluteString])
            #expect(curl.status == 0, "\(curl.stderr)")
            let upload = try await server.waitForUpload(named: "notes.txt")
            #expect(upload.data == Data("uploaded by curl\n".utf8))
        }
    }

    @Test("a request no mock-data file answers fails the test, listing the files tried")
    func mockDataMissFails() async throws {
        let reports = try await ReportCapture.capturing {
            try await withHTTPMockServer { server in
                try server.addMockData(named: "VOKMockData", in: .module)
                let (_, response) = try await URLSession.shared.data(from: server.url(for: "/v1/you"))
                #expect((response as? HTTPURLResponse)?.statusCode == 404)
            }
        }
        #expect(reports.count == 1, "\(reports)")
        let text = reports.first ?? ""
        #expect(text.hasPrefix("MockServer: unexpected request") && text.contains("No mock-data file answers it.")
                && text.contains("\n  GET|-v1-you.http\n  GET|-v1-you.json\n"), "\(text)")
    }

    @Test("a request no stub matches fails the test with the request, the stub to add and the nearest stub")
    func unexpectedRequestFails() async throws {
        let reports = try await ReportCapture.capturing {
            try await withHTTPMockServer { server in
                server.stubRequest("GET", "/pets").andReturn(200)
                let (_, response) = try await URLSession.shared.data(from: server.url(for: "/cats"))
                #expect((response as? HTTPURLResponse)?.statusCode == 500)
            }
        }
        #expect(reports.count == 1, "\(reports)")
        let text = reports.first ?? ""
        #expect(text.hasPrefix("MockServer: unexpected request")
                && text.contains("  GET /cats HTTP/1.1")
                && text.contains(#"server.stubRequest("GET", "/cats")"#)
                && text.contains("The nearest stub, GET /pets, differs in its path: target /cats, not /pets."), "\(text)")
    }

    @Test("an endpoint closure that throws fails the test, naming the error")
    func throwingEndpointFails() async throws {
        struct Broken: Error {}
        let reports = try await ReportCapture.capturing {
            try await withHTTPMockServer { server in
                server.add(.GET, "/broken") { _, _ in throw Broken() }
                let (_, response) = try await URLSession.shared.data(from: server.url(for: "/broken"))
                #expect((response as? HTTPURLResponse)?.statusCode == 500)
            }
        }
        #expect(reports.count == 1, "\(reports)")
        #expect(reports.first?.hasPrefix("MockServer: an endpoint closure threw (its request got a 500): GET /broken threw for GET /broken: Broken") == true,
                "\(reports)")
    }

    @Test("an input no response matches fails the test with the input, a snippet to paste and the transcript")
    func unexpectedInputFails() async throws {
        let reports = try await ReportCapture.capturing {
            try await withMockServer(responses: "hello-http", in: .module) { server in
                let client = try TestClient(port: server.port)
                try client.send("GET /pot HTTP/1.1\r\nHost: x\r\n\r\nBREW /pot HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(String(decoding: try client.readToEnd(), as: UTF8.self).hasPrefix("HTTP/1.1 200 OK"))
                try await server.waitForConnectionsClosed()
            }
        }
        #expect(reports.count == 1, "\(reports)")
        let text = reports.first ?? ""
        #expect(text.contains("MockServer received 1 input that no response matched:")
                && text.contains("#1  BREW /pot HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
                && text.contains(#""brew": { "pattern": "^BREW /pot HTTP/1\\.1\\r?\\n", "commands": [{"response": {"status": "200 OK"}}] }"#)
                && text.contains("Transcript:")
                && text.contains("<- GET /pot HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n  [get]"), "\(text)")
    }

    @Test("an error in the body comes back with the transcript")
    func errorsCarryTheTranscript() async throws {
        struct Boom: Error {}
        do {
            try await withMockServer(responses: "ftp") { server in
                let client = try TestClient(port: server.port)
                _ = try client.readLine()
                throw Boom()
            }
            Issue.record("the body's error should come back")
        } catch let failure as MockServerTestFailure {
            #expect(failure.underlying is Boom)
            #expect(failure.description.contains("-> 220 127.0.0.1 FTP server (MockServer) ready."))
        }
    }

    @Test("opting out leaves unmatched inputs to the test")
    func optOut() async throws {
        let unmatched = try await withMockServer(responses: "hello-http", in: .module, failOnUnexpectedInput: false) { server in
            let client = try TestClient(port: server.port)
            try client.send("BREW /coffee HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try client.readToEnd()
            try await server.waitForConnectionsClosed()
            return server.transcript.unmatched.count
        }
        #expect(unmatched == 1)
    }

    @Test("50 tests in parallel each get their own server", arguments: 0..<50)
    func parallel(index: Int) async throws {
        try await withMockServer(responses: "ftp") { server in
            let client = try TestClient(port: server.port)
            #expect(try client.readLine() == "220 127.0.0.1 FTP server (MockServer) ready.")
            try client.send("USER user\(index)\r\n")
            #expect(try client.readLine() == "331 User user\(index) accepted, provide password.")
            try client.send("QUIT\r\n")
            #expect(try client.readLine() == "221 Goodbye.")
            try await server.waitForConnectionsClosed()
            #expect(server.transcript.inputs.map(\.text) == ["USER user\(index)", "QUIT"])
        }
    }
}

@Suite("Reports when the body throws", .offPool)
struct ReportsWhenTheBodyThrows {
    @Test("the unexpected-input report is recorded even when the client's error ends the body")
    func inputReportSurvivesAThrow() async throws {
        var thrown: (any Error)?
        let reports = await ReportCapture.capturing {
            do {
                try await withMockServer(responses: "hello-http", in: .module) { server in
                    // Nothing answers BREW: the server closes, and URLSession's error ends the body.
                    var request = URLRequest(url: server.url(for: "/pot"))
                    request.httpMethod = "BREW"
                    _ = try await URLSession(configuration: .ephemeral).data(for: request)
                }
            } catch {
                thrown = error
            }
        }
        #expect(reports.contains { $0.contains("MockServer received 1 input that no response matched:") && $0.contains("BREW /pot HTTP/1.1") }, "\(reports)")
        // The client's error in words, not as Foundation's NSError dump.
        let error = try #require(thrown.map { "\($0)" })
        #expect(error.contains("URLSession failed: badServerResponse (-1011) for http://127.0.0.1:") && error.contains("/pot: the connection closed"), "\(error)")
        #expect(!error.contains("NSURLErrorDomain"), "\(error)")
    }

    @Test("unexpected-request reports are recorded even when the body throws")
    func requestReportSurvivesAThrow() async throws {
        struct Stop: Error {}
        var thrown: (any Error)?
        let reports = await ReportCapture.capturing {
            do {
                try await withHTTPMockServer { server in
                    _ = try await URLSession(configuration: .ephemeral).data(from: server.url(for: "/nobody"))
                    throw Stop()
                }
            } catch {
                thrown = error
            }
        }
        #expect(reports.contains { $0.hasPrefix("MockServer: unexpected request") && $0.contains("GET /nobody") }, "\(reports)")
        #expect((thrown as? MockServerTestFailure)?.underlying is Stop)
    }
}

@Suite("Finding a response script", .offPool)
struct ScriptLookupTests {
    @Test("a script found nowhere names the bundle, every path searched, and how to add it")
    func notFound() async throws {
        do {
            try await withMockServer(responses: "no-such-script", in: .module) { _ in }
            Issue.record("started without a script")
        } catch {
            let text = "\(error)"
            #expect(text.contains("\(Bundle.module.bundlePath)/no-such-script.json"), "\(text)")
            #expect(text.contains("\(Bundle.module.bundlePath)/Responses/no-such-script.json"))
            #expect(text.contains("bundled scripts (ftp, http, webdav)"))
            #expect(text.contains(#"resources: [.copy("no-such-script.json")]"#) && text.contains("in: .module"))
        }
        do {
            try await withMockServer(responses: "no-such-script") { _ in }
            Issue.record("started without a script")
        } catch {
            #expect("\(error)".contains("pass in: .module"), "\(error)")
        }
    }
}

@Suite("Unexpected-input report", .offPool)
struct UnexpectedInputReportTests {
    @Test("the snippet's pattern matches exactly the input, escaping only metacharacters", arguments: [
        "BREW /pot HTCPCP/1.0", "GET /a?b=(1)&c=[2] HTTP/1.1", "", "tab\there", "back\\slash $5 ^up* {x}|y+",
    ])
    func snippetRoundTrips(text: String) throws {
        let snippet = UnexpectedInputReport.snippet(for: InputUnit(text))
        let script = try ResponseScript(json: "{\"scheme\": \"http\", \"responses\": {\(snippet)}}")
        let entry = try #require(try script.set(named: "default").entries.first)
        #expect(entry.pattern.match(InputUnit(text)) != nil)
        #expect(entry.pattern.match(InputUnit(text + "x")) == nil)
    }

    @Test("a request's suggested entry, pasted into an HTTP script, answers URLSession (not HTTP/0.9)")
    func requestSnippetAnswersURLSession() async throws {
        let snippet = UnexpectedInputReport.snippet(for: InputUnit("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"))
        let script = try ResponseScript(json: "{\"scheme\": \"http\", \"responses\": {\(snippet)}}")
        let server = try MockServer(script: script)
        try await server.start()
        defer { server.stop() }
        let (_, response) = try await URLSession(configuration: .ephemeral).data(from: server.url(for: "/hello"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        // A line protocol's input still gets a line.
        #expect(UnexpectedInputReport.snippet(for: InputUnit("NOOP")).hasSuffix(#""commands": ["200 OK\r\n"] }"#))
    }

    @Test("a request's snippet matches its first line")
    func requestSnippet() throws {
        let request = InputUnit("PROPFIND /dav/ HTTP/1.1\r\nDepth: 1\r\n\r\n")
        let snippet = UnexpectedInputReport.snippet(for: request)
        #expect(snippet == #""propfind": { "pattern": "^PROPFIND /dav/ HTTP/1\\.1\\r?\\n", "commands": [{"response": {"status": "200 OK"}}] }"#)
        let script = try ResponseScript(json: "{\"scheme\": \"http\", \"responses\": {\(snippet)}}")
        #expect(try script.set(named: "default").entries[0].pattern.match(request) != nil)
    }
}
