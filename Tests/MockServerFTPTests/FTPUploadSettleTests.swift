import Foundation
import Testing
import TestSupport
import MockServerResponses
import MockServer
import MockServerFTP
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The settle rule for FTP uploads: URLSession on Linux keeps the data connection open until it has
/// the 226, so the server sends it once the connection has been quiet for a while, and still reads
/// every byte to the end.
// Serialized: FoundationNetworking runs every session's transfers on one shared queue, which each
// upload blocks while it waits for its 226, so parallel uploads only wait on each other.
@Suite("FTP uploads: the settle rule", .offPool, .serialized)
struct FTPUploadSettleTests {
    /// A configuration whose FTP settings settle uploads after `settle`.
    static func configuration(settle: Duration?) -> MockServer.Configuration {
        var configuration = MockServer.Configuration()
        configuration.settings[MockServer.FTPServerSettings.self] = MockServer.FTPServerSettings(uploadSettleTime: settle)
        return configuration
    }

    private func ftp(settle: Duration? = .milliseconds(300)) throws -> MockServer {
        let server = try MockServer(script: BundledResponses.script(named: "ftp"), configuration: Self.configuration(settle: settle))
        try server.start()
        return server
    }

    private func settled(_ server: MockServer) -> [Transcript.Event] {
        server.transcript.entries.map(\.event).filter { if case .note(let note) = $0, note.kind == "upload-settled" { true } else { false } }
    }

    /// Python that logs in on a raw control connection, asks for passive mode and opens the data
    /// connection: `control`, `reply()` and `data` are ready after it.
    static func rawSession(port: UInt16) -> String {
        """
        import socket, re, select
        control = socket.create_connection(("127.0.0.1", \(port)), timeout=10)
        reader = control.makefile("rb")
        reply = lambda: reader.readline().decode()
        reply()
        for command in ("USER u", "PASS p", "TYPE I"):
            control.sendall((command + "\\r\\n").encode()); reply()
        control.sendall(b"PASV\\r\\n")
        numbers = [int(n) for n in re.search(r"\\((.*)\\)", reply()).group(1).split(",")]
        data = socket.create_connection(("127.0.0.1", numbers[4] * 256 + numbers[5]), timeout=10)
        """
    }

    enum Form: String, CaseIterable, Sendable {
        case uploadTaskFromFile = "uploadTask(with:fromFile:)"
        case uploadTaskFromData = "uploadTask(with:from:)"
        case asyncUpload = "upload(for:from:)"
    }

    @Test("URLSession uploads byte-exact in every form and size, well under a second plus the settle time",
          arguments: Form.allCases, [100 << 10, 1 << 20, 10 << 20])
    func urlSession(form: Form, size: Int) async throws {
        let server = try ftp()
        defer { server.stop() }
        let payload = Tools.randomBytes(size, seed: UInt64(size) &+ UInt64(form.rawValue.utf8.count))
        let name = "urlsession-\(size).bin"
        var request = URLRequest(url: try #require(URL(string: "ftp://127.0.0.1:\(server.port)/\(name)")))
        request.httpMethod = "PUT"
        let session = URLSession(configuration: FTPSessions.configuration(timeout: 20))
        defer { session.finishTasksAndInvalidate() }
        // The clock starts once the transfer holds the gate: the wait for another transfer is not the upload's.
        let elapsed = try await FTPTransferGate.shared.oneAtATime {
            let started = ContinuousClock.now
            switch form {
            case .asyncUpload:
                _ = try await session.upload(for: request, from: payload)
            case .uploadTaskFromData:
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    session.uploadTask(with: request, from: payload) { _, _, error in
                        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                    }.resume()
                }
            case .uploadTaskFromFile:
                let file = try Tools.temporaryDirectory().appendingPathComponent(name)
                defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
                try payload.write(to: file)
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    session.uploadTask(with: request, fromFile: file) { _, _, error in
                        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                    }.resume()
                }
            }
            return ContinuousClock.now - started
        }
        // The client has its 226; the wait is for the transcript, with room for a loaded machine.
        let upload = try await server.waitForUpload(named: name, timeout: .seconds(30))
        #expect(upload.data == payload)
        // A deadlocked upload ends after libcurl's minute (with a -1001 error, which fails the test
        // above); this one takes about the settle time alone (0.3–0.5 s measured). The bound only
        // tells the two apart, with room for a sanitizer build on a busy machine.
        #expect(elapsed < .seconds(50), "took \(elapsed)")
        #expect(settled(server).count == 1, "\(server.transcript.dump())")
    }

    @Test("curl, ftplib and lftp close the data connection themselves: 226 comes after the end, the rule never fires",
          .enabled(if: Tools.hasCurl && Tools.hasPython && Tools.hasLftp))
    func otherClients() async throws {
        let server = try ftp()
        defer { server.stop() }
        let payload = Tools.randomBytes(10 << 20, seed: 17)
        let directory = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("ten.bin")
        try payload.write(to: file)
        let curl = try Tools.curl(maxTime: 30, ["-T", file.path, "ftp://127.0.0.1:\(server.port)/by-curl.bin"])
        #expect(curl.status == 0, "\(curl.stderr)")
        let ftplib = try Tools.python("""
            import ftplib
            f = ftplib.FTP(); f.connect("127.0.0.1", \(server.port), timeout=30); f.login("u", "p")
            with open("\(file.path)", "rb") as data: print(f.storbinary("STOR by-ftplib.bin", data))
            f.quit()
            """)
        #expect(ftplib.stdout.hasPrefix("226"), "\(ftplib.stderr)")
        let lftp = try Tools.run("lftp", ["-c", "set net:max-retries 1; set net:timeout 20; open -u u,p ftp://127.0.0.1:\(server.port); put \(file.path) -o by-lftp.bin"])
        #expect(lftp.status == 0, "\(lftp.stderr)")
        for name in ["by-curl.bin", "by-ftplib.bin", "by-lftp.bin"] {
            #expect(try await server.waitForUpload(named: name).data == payload, "\(name)")
        }
        #expect(settled(server).isEmpty, "\(server.transcript.dump())")
        // On each control connection, the 226 after a STOR comes after its data connection's end.
        let entries = server.transcript.entries
        func isStor(_ entry: Transcript.Entry) -> Bool {
            if case .input(let input, _) = entry.event { input.text.hasPrefix("STOR") } else { false }
        }
        func isDataEnd(_ entry: Transcript.Entry) -> Bool {
            if entry.channel == .data, case .received = entry.event { true } else { false }
        }
        func is226(_ entry: Transcript.Entry) -> Bool {
            if entry.channel == .main, case .output(let bytes) = entry.event { bytes.starts(with: Array("226".utf8)) } else { false }
        }
        let stors = entries.filter(isStor)
        #expect(stors.count == 3)
        for stor in stors {
            let later = entries.filter { $0.sequence > stor.sequence }
            let end = try #require(later.first(where: isDataEnd))
            let reply = try #require(later.first { $0.connection == stor.connection && is226($0) })
            #expect(end.sequence < reply.sequence)
        }
    }

    @Test("a client that pauses mid-upload longer than the settle time gets an early 226, and every byte is still recorded",
          .enabled(if: Tools.hasPython))
    func pausingClient() async throws {
        let server = try ftp(settle: .milliseconds(200))
        defer { server.stop() }
        let result = try Tools.python("""
            \(Self.rawSession(port: server.port))
            control.sendall(b"STOR paused.bin\\r\\n"); print(reply()[:3])
            data.sendall(b"first half;")
            print(reply()[:3])           # the 226 arrives while the data connection is still open
            data.sendall(b"second half")
            data.close()
            control.sendall(b"QUIT\\r\\n"); print(reply()[:3])
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "150\n226\n221\n")
        #expect(try await server.waitForUpload(named: "paused.bin").data == Data("first half;second half".utf8))
        #expect(settled(server).count == 1)
    }

    @Test("a client that sends nothing and keeps the data connection open gets its 226 after the settle time, and an empty upload is recorded at its end",
          .enabled(if: Tools.hasPython))
    func silentClient() async throws {
        let server = try ftp(settle: .milliseconds(200))
        defer { server.stop() }
        // The quiet time counts from the transfer's start: with no byte at all, the 226 still comes
        // (it waited for the data connection's end; the socket's 10 s timeout fails the read then).
        let result = try Tools.python("""
            \(Self.rawSession(port: server.port))
            control.sendall(b"STOR silent.bin\\r\\n"); print(reply()[:3])
            print(reply()[:3])           # the 226, while the data connection is still open
            data.close()
            control.sendall(b"QUIT\\r\\n"); print(reply()[:3])
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "150\n226\n221\n")
        #expect(try await server.waitForUpload(named: "silent.bin").data == Data())
        #expect(settled(server).count == 1)
    }

    @Test("strict mode (no settle time, or a script's upload-settle of 0) sends 226 only at the end")
    func strict() throws {
        let script = try ResponseScript(json: #"{"upload-settle": 0, "responses": {"r": {"pattern": ".", "commands": ["x"]}}}"#)
        #expect(script.settings[FTPSettings.self]?.uploadSettle == .zero)
        #expect(try ResponseScript(json: #"{"responses": {"r": {"pattern": ".", "commands": ["x"]}}}"#).settings[FTPSettings.self] == nil)
        #expect(throws: ResponseFileError.self) { try ResponseScript(json: #"{"upload-settle": "soon", "responses": {}}"#) }
        #expect(throws: ResponseFileError.self) { try ResponseScript(json: #"{"upload-settle": -1, "responses": {}}"#) }
    }

    @Test("in strict mode a pausing client's 226 waits for the end of the data connection", .enabled(if: Tools.hasPython))
    func strictPause() async throws {
        let server = try ftp(settle: nil)
        defer { server.stop() }
        let result = try Tools.python("""
            \(Self.rawSession(port: server.port))
            control.sendall(b"STOR strict.bin\\r\\n"); print(reply()[:3])
            data.sendall(b"all of it")
            readable, _, _ = select.select([control], [], [], 0.6)
            print(reply()[:3] if readable else "no reply yet")
            data.close()
            print(reply()[:3])
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "150\nno reply yet\n226\n")
        #expect(try await server.waitForUpload(named: "strict.bin").data == Data("all of it".utf8))
        #expect(settled(server).isEmpty)
    }
}
