import Foundation
import Testing
import TestSupport
import MockServerResponses
import MockServer
import MockServerCore
import MockServerHTTP
import MockServerScript
import MockServerWebDAV

/// The built `mockserver` executable, run as a user would.
@Suite("mockserver command", .offPool)
struct CommandLineTests {
    @Test("with no file it serves the bundled FTP script, prints the ports first, and stops cleanly on SIGINT and SIGTERM",
          arguments: [SIGINT, SIGTERM])
    func servesBundledScript(signal: Int32) throws {
        let command = try RunningCommand(["--verbose"])
        let (port, dataPort) = try #require(command.ports, "first line: \(command.firstLine)")
        #expect(command.firstLine == "mockserver listening on 127.0.0.1:\(port) (data port \(dataPort))")
        let client = try TestClient(port: port)
        #expect(try client.readLine() == "220 127.0.0.1 FTP server (MockServer) ready.")
        try client.send("USER someone\r\n")
        #expect(try client.readLine() == "331 User someone accepted, provide password.")
        let data = try TestClient(port: dataPort)
        #expect(try String(decoding: data.readToEnd(), as: UTF8.self) == "Hello from MockServer!\n")
        let (status, stderr) = command.terminate(signal: signal)
        #expect(status == 0)
        #expect(stderr.contains("<- USER someone  [user]"))
    }

    @Test("a mockserver copied out of .build without its resource bundle, or reached through a link, still serves the bundled script",
          .enabled(if: Tools.hasCurl))
    func copiedOutOfBuild() throws {
        let folder = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("mockserver")
        // Copied by cp: a descriptor this process opened for writing could be inherited by a child
        // another test forks meanwhile, and the copy would not run ("Text file busy").
        #expect(try Tools.run("cp", [Tools.mockserver.path, copy.path]).status == 0)
        let link = folder.appendingPathComponent("linked-mockserver")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: Tools.mockserver)
        // Last resort, the package's own folder: found while the checkout is there, when the
        // build folder whose path SwiftPM's own lookup remembers is gone.
        let root = Tools.repositoryRoot
        #expect(BundledResponses.searchedPlaces.last?.standardizedFileURL == root.appendingPathComponent("Responses").standardizedFileURL)
        for executable in [copy, link] {
            let command = try RunningCommand([], executable: executable)
            let (port, _) = try #require(command.ports, "\(executable.lastPathComponent): \(command.firstLine)")
            #expect(try Tools.curl(["ftp://127.0.0.1:\(port)/x"]).stdout == "Hello from MockServer!\n")
            #expect(command.terminate().0 == 0)
        }
    }

    @Test("--check names a response script and an endpoints file as they were typed, relative or absolute")
    func checkNamesFilesAsTyped() throws {
        let folder = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"responses": {"a": {"pattern": "^A", "commands": ["ok"]},}"#.utf8).write(to: folder.appendingPathComponent("script.json"))
        try Data(#"{"endpoints": [{"api": "get /a", "response": {"status": "two hundred"}}]}"#.utf8).write(to: folder.appendingPathComponent("stubs.json"))
        for name in ["script.json", "stubs.json"] {
            let relative = try Tools.run(Tools.mockserver.path, ["--check", name], directory: folder)
            #expect(relative.status == 65 && relative.stderr.hasPrefix("\(name):"), "\(relative.stderr)")
            let absolute = try Tools.run(Tools.mockserver.path, ["--check", folder.appendingPathComponent(name).path])
            #expect(absolute.status == 65 && absolute.stderr.hasPrefix(folder.appendingPathComponent(name).path + ":"), "\(absolute.stderr)")
        }
    }

    @Test("--check counts in the singular for one: 1 endpoint, 1 mock-data file")
    func checkCountsOne() throws {
        let folder = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"endpoints": [{"api": "get /a", "response": {"body": "a"}}]}"#.utf8).write(to: folder.appendingPathComponent("one.json"))
        let endpoints = try Tools.run(Tools.mockserver.path, ["--check", "one.json"], directory: folder)
        #expect(endpoints.status == 0 && endpoints.stdout == "one.json: OK, 1 endpoint\n", "\(endpoints.stdout)\(endpoints.stderr)")
        let data = folder.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data("HTTP/1.1 200 OK\r\n\r\nhi".utf8).write(to: data.appendingPathComponent("GET|-a.http"))
        let files = try Tools.run(Tools.mockserver.path, ["--check", "--mock-data", data.path])
        #expect(files.status == 0 && files.stdout.hasSuffix(": OK, 1 mock-data file\n"), "\(files.stdout)\(files.stderr)")
    }

    @Test("serving an endpoints file, an unexpected request's report offers the JSON entry, which answers it once added",
          .enabled(if: Tools.hasCurl))
    func endpointSnippet() throws {
        let folder = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("stubs.json")
        try Data(#"{"endpoints": [{"api": "get /pets", "response": {"body": "rex"}}]}"#.utf8).write(to: file)
        let command = try RunningCommand(["--admin", file.path])
        // mockserver listening on 127.0.0.1:PORT (no data port for HTTP)
        let port = try #require(command.firstLine.split(separator: ":").last.flatMap { UInt16($0) }, "\(command.firstLine)")
        let admin = try #require(command.nextLine().split(separator: " ").last.map(String.init))
        defer { _ = command.terminate() }
        let url = "http://127.0.0.1:\(port)/pets/new?kind=cat"
        let miss = try Tools.curl(["-s", "-H", "X-Token: a\"b", "--data-binary", "name=Tom", url])
        let lines = miss.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex(of: "To answer it, add to the \"endpoints\":"), "\(miss.stdout)")
        let entry = lines[index + 2].trimmingCharacters(in: .whitespaces)
        #expect(entry == #"{"api": "post /pets/new?kind=cat", "request": {"headers": {"Accept": "*/*", "X-Token": "a\"b", "Content-Type": "application/x-www-form-urlencoded"}, "body": "name=Tom"}, "response": {"status": 200}},"#)
        #expect(!miss.stdout.contains("server.stubRequest"))
        // Pasted (without its comma), it answers the same request.
        let added = try Tools.curl(["-s", "-H", "Content-Type: application/json", "--data-binary", "[" + entry.dropLast() + "]", admin + "endpoints"])
        #expect(added.stdout == #"{"added":1}"# + "\n", "\(added.stdout)")
        let hit = try Tools.curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "X-Token: a\"b", "--data-binary", "name=Tom", url])
        #expect(hit.stdout == "200")
    }

    @Test("--port, --set and --data are honoured", .enabled(if: Tools.hasCurl))
    func options() throws {
        let dataFile = FileManager.default.temporaryDirectory.appendingPathComponent("mockserver-data-\(UUID().uuidString)")
        try Data("from a file\n".utf8).write(to: dataFile)
        defer { try? FileManager.default.removeItem(at: dataFile) }
        let command = try RunningCommand(["--set", "default", "--data", dataFile.path])
        let (port, _) = try #require(command.ports)
        let result = try Tools.curl(["ftp://127.0.0.1:\(port)/x"])
        #expect(result.stdout == "from a file\n", "\(result.stderr)")
        #expect(command.terminate().0 == 0)
    }

    @Test("--check accepts the bundled script and strictly refuses a set naming a missing response")
    func checkStrict() throws {
        let result = try Tools.run(Tools.mockserver.path, ["--check", Fixtures.url("bad-pattern.json").deletingLastPathComponent().appendingPathComponent("original-style.json").path])
        // The original-style fixture names a missing response in one set: a strict check refuses it.
        #expect(result.status == 65)
        #expect(result.stderr.contains("original-style.json:12:62: set \"bad login\" names the response \"unknown\""))
        let bundled = try Tools.run(Tools.mockserver.path, ["--check", try #require(BundledResponses.url(named: "ftp")).path])
        #expect(bundled.status == 0, "\(bundled.stderr)")
        #expect(bundled.stdout.contains("OK, sets: \"default\""))
    }

    @Test("--check reports FILE:LINE:COLUMN: message and exits 65", arguments: [
        ("syntax-error.json", "syntax-error.json:3:34: JSON syntax error: expected ',' or '}' but found '\"'"),
        ("bad-pattern.json", "bad-pattern.json:4:32: response \"broken\" has an invalid pattern \"^RETR (unclosed\": "),
    ])
    func checkBad(file: String, message: String) throws {
        let path = Fixtures.url(file).path
        let result = try Tools.run(Tools.mockserver.path, ["--check", path])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix(path.dropLast(file.count) + message), "\(result.stderr)")
    }

    @Test("bad arguments exit 64 naming the culprit; a missing file exits 66; a taken port exits 71")
    func failures() throws {
        let unknown = try Tools.run(Tools.mockserver.path, ["--frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown option --frobnicate"))
        let port = try Tools.run(Tools.mockserver.path, ["--port", "70000"])
        #expect(port.status == 64)
        #expect(port.stderr.contains("--port takes a port from 0 to 65535, not \"70000\""))
        let missing = try Tools.run(Tools.mockserver.path, ["/nonexistent/script.json"])
        #expect(missing.status == 66)
        let set = try Tools.run(Tools.mockserver.path, ["--set", "nope"])
        #expect(set.status == 65)
        #expect(set.stderr.contains("there is no set \"nope\""))

        let server = MockServer(responder: PatternResponder([]))
        try server.start()
        defer { server.stop() }
        let taken = try Tools.run(Tools.mockserver.path, ["--port", "\(server.port)"])
        #expect(taken.status == 71)
        #expect(taken.stderr.contains("bind(127.0.0.1:\(server.port)): "))
    }

    @Test("MOCKSERVER_SELECTOR=poll makes the command wait with poll, never epoll (seen in a system-call trace)",
          .enabled(if: Tools.path(of: "strace") != nil && IOSelector.Kind.platformDefault == .epoll))
    func pollSelector() throws {
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("mockserver-trace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: trace) }
        let strace = URL(fileURLWithPath: try #require(Tools.path(of: "strace")))
        let command = try RunningCommand(["-f", "-e", "trace=poll,ppoll,epoll_wait,epoll_pwait,epoll_create1", "-o", trace.path, Tools.mockserver.path],
                                         executable: strace, environment: ["MOCKSERVER_SELECTOR": "poll"])
        let port = try #require(command.ports?.0, "first line: \(command.firstLine)")
        let client = try TestClient(port: port)
        #expect(try client.readLine() == "220 127.0.0.1 FTP server (MockServer) ready.")
        try client.send("NOOP\r\n")
        _ = try client.readLine()
        // Stop mockserver itself (strace's child); strace exits with it.
        let tracer = command.process.pid
        let children = try String(contentsOfFile: "/proc/\(tracer)/task/\(tracer)/children", encoding: .utf8)
        let server = try #require(children.split(separator: " ").first.flatMap { Int32($0) }, "children of strace: \(children)")
        kill(server, SIGTERM)
        #expect(command.process.wait() == 0)
        // Dispatch (the command's signal sources) waits with epoll on a thread of its own; the
        // server's loop thread must call poll and nothing else.
        let calls = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
        func threads(calling name: String) -> Set<Substring> {
            Set(calls.filter { $0.contains(" \(name)(") }.compactMap { $0.split(separator: " ").first })
        }
        let polling = threads(calling: "poll")
        #expect(!polling.isEmpty, "\(calls)")
        #expect(polling.isDisjoint(with: threads(calling: "epoll_wait").union(threads(calling: "epoll_pwait"))), "\(calls)")
    }

    @Test("an unknown MOCKSERVER_SELECTOR is refused, naming the variable and its value")
    func unknownSelector() throws {
        let result = try Tools.run(Tools.mockserver.path, [], environment: ["MOCKSERVER_SELECTOR": "kqueue"])
        #expect(result.status == 71)
        #expect(result.stderr.contains("MOCKSERVER_SELECTOR(kqueue)"), "\(result.stderr)")
        #expect(throws: SocketCallError.self) { try IOSelector.Kind.chosen(environment: ["MOCKSERVER_SELECTOR": "select"]) }
        #expect(try IOSelector.Kind.chosen(environment: [:]) == IOSelector.Kind.platformDefault)
        #expect(try IOSelector.Kind.chosen(environment: ["MOCKSERVER_SELECTOR": "poll"]) == .poll)
    }

    @Test("an HTTP script binds no data port, and the first line leaves out its parenthesis", .enabled(if: Tools.hasCurl))
    func httpFirstLine() throws {
        let bundled = try #require(BundledResponses.url(named: "http")).path
        let command = try RunningCommand([bundled])
        let parts = command.firstLine.split(separator: " ")
        let port = try #require(parts.last?.split(separator: ":").last.flatMap { UInt16($0) }, "first line: \(command.firstLine)")
        #expect(command.firstLine == "mockserver listening on 127.0.0.1:\(port)")
        let result = try Tools.curl(["-u", "user:pass", "http://127.0.0.1:\(port)/items"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(command.terminate().0 == 0)
    }

    @Test("--files serves a folder by name; --uploads saves uploads inside its folder only", .enabled(if: Tools.hasCurl && Tools.hasPython))
    func filesAndUploads() throws {
        let files = try Tools.temporaryDirectory()
        let uploads = try Tools.temporaryDirectory().appendingPathComponent("in")
        defer {
            try? FileManager.default.removeItem(at: files)
            try? FileManager.default.removeItem(at: uploads.deletingLastPathComponent())
        }
        try Data("served from a folder\n".utf8).write(to: files.appendingPathComponent("served.txt"))
        let command = try RunningCommand(["--files", files.path, "--uploads", uploads.path])
        let (port, _) = try #require(command.ports)
        #expect(try Tools.curl(["ftp://127.0.0.1:\(port)/served.txt"]).stdout == "served from a folder\n")
        #expect(try Tools.curl(["ftp://127.0.0.1:\(port)/missing.txt"]).status == 78)
        let result = try Tools.python("""
            import ftplib, io
            f = ftplib.FTP(); f.connect("127.0.0.1", \(port), timeout=20); f.login("u", "p")
            f.storbinary("STOR plain.txt", io.BytesIO(b"plain"))
            f.storbinary("STOR ../../escape.txt", io.BytesIO(b"tried to escape"))
            f.mkd("sub"); f.storbinary("STOR sub/../sub/deep.txt", io.BytesIO(b"deep"))
            try:
                f.storbinary("STOR ..", io.BytesIO(b"dots"))
            except ftplib.error_perm as error:
                print(str(error)[:3])
            f.quit()
            """)
        #expect(result.status == 0 && result.stdout == "550\n", "\(result.stderr)")
        #expect(command.terminate().0 == 0)
        let saved = try FileManager.default.contentsOfDirectory(atPath: uploads.path).sorted()
        #expect(saved == ["escape.txt", "plain.txt", "sub"])
        #expect(try Data(contentsOf: uploads.appendingPathComponent("sub/deep.txt")) == Data("deep".utf8))
        #expect(try Data(contentsOf: uploads.appendingPathComponent("escape.txt")) == Data("tried to escape".utf8))
        #expect(!FileManager.default.fileExists(atPath: uploads.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("escape.txt").path))
    }

    @Test("--help prints the usage")
    func help() throws {
        let result = try Tools.run(Tools.mockserver.path, ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("USAGE: mockserver"))
    }
}
