import Foundation
import MockServerResponses
import Testing
import TestSupport
import MockServer
import MockServerCore
import MockServerHTTP
import MockServerScript
import MockServerWebDAV
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Real FTP clients download through the bundled `ftp.json`.
@Suite("FTP clients against the bundled script", .offPool)
struct FTPClientTests {
    private func startFTP(set: String = "default", data: String = "Hello from a test!\n") throws -> MockServer {
        let server = try MockServer(script: BundledResponses.script(named: "ftp"), set: set)
        server.data = Data(data.utf8)
        try server.start()
        return server
    }

    @Test("the bundled script serves its own data by default")
    func bundledData() throws {
        let server = try MockServer(script: BundledResponses.script(named: "ftp"))
        #expect(server.data == Data("Hello from MockServer!\n".utf8))
    }

    @Test("curl downloads with EPSV (its default) and with PASV", .enabled(if: Tools.hasCurl), arguments: [[], ["--disable-epsv"]])
    func curlDownload(options: [String]) async throws {
        let server = try startFTP()
        defer { server.stop() }
        let result = try Tools.curl(options + ["ftp://127.0.0.1:\(server.port)/file.txt"])
        #expect(result.status == 0, "\(result.stderr)\n\(server.transcript.dump())")
        #expect(result.stdout == "Hello from a test!\n")
        let commands = server.transcript.inputs.map { $0.text.split(separator: " ").first.map(String.init) ?? "" }
        #expect(commands.contains(options.isEmpty ? "EPSV" : "PASV"))
        #expect(commands.contains("RETR"))
        #expect(server.transcript.unmatched.isEmpty)
    }

    @Test("curl reports a refused login with exit code 67", .enabled(if: Tools.hasCurl))
    func curlBadLogin() throws {
        let server = try startFTP(set: "bad login")
        defer { server.stop() }
        let result = try Tools.curl(["ftp://127.0.0.1:\(server.port)/file.txt"])
        #expect(result.status == 67, "\(result.stderr)")
    }

    @Test("Python's ftplib downloads", .enabled(if: Tools.hasPython))
    func ftplibDownload() throws {
        let server = try startFTP(data: "ftplib bytes\n")
        defer { server.stop() }
        let result = try Tools.python("""
            import ftplib, sys
            f = ftplib.FTP()
            f.connect("127.0.0.1", \(server.port), timeout=20)
            f.login("anonymous", "x")
            got = bytearray()
            f.retrbinary("RETR file.txt", got.extend)
            f.quit()
            sys.stdout.write(got.decode())
            """)
        #expect(result.status == 0, "\(result.stderr)\n\(server.transcript.dump())")
        #expect(result.stdout == "ftplib bytes\n")
        #expect(server.transcript.inputs.map(\.text).prefix(5) == ["USER anonymous", "PASS x", "TYPE I", "PASV", "RETR file.txt"])
    }

    @Test("URLSession downloads an ftp:// URL")
    func urlSessionDownload() async throws {
        let server = try startFTP(data: "URLSession bytes\n")
        defer { server.stop() }
        let session = URLSession(configuration: FTPSessions.configuration())
        let (data, _) = try await FTPTransferGate.shared.oneAtATime { try await session.data(from: URL(string: "ftp://127.0.0.1:\(server.port)/file.txt")!) }
        #expect(String(decoding: data, as: UTF8.self) == "URLSession bytes\n")
        #expect(server.transcript.unmatched.isEmpty)
    }
}
