import Foundation
import Testing
import TestSupport
import MockServerResponses
import MockServer

/// FTPS with the bundled `ftp.json`: `AUTH TLS`, `PBSZ 0`, `PROT P`, every data connection TLS,
/// met by curl, Python's ftplib and lftp.
@Suite("FTPS", .offPool)
struct FTPSTests {
    /// A started bundled FTP server with a generated identity, beginning TLS as `mode` says, and
    /// its CA written to a file.
    private func start(_ mode: TLSSettings.Mode) throws -> (MockServer, String) {
        var configuration = MockServer.Configuration()
        configuration.tls = try .generated(mode: mode)
        let server = try MockServer(script: BundledResponses.script(named: "ftp"), configuration: configuration)
        try server.start()
        let ca = try Tools.temporaryDirectory().appendingPathComponent("ca.pem").path
        try #require(configuration.tls?.identity.caCertificatePEM).write(toFile: ca, atomically: true, encoding: .utf8)
        return (server, ca)
    }

    private func dataHandshakes(_ server: MockServer) -> Int {
        server.transcript.entries.filter { entry in
            if case .note(let note) = entry.event, note.kind == "tls-handshake", entry.channel == .data { true } else { false }
        }.count
    }

    @Test("curl --ssl-reqd: download over EPSV and PASV, listing, upload, every data connection TLS")
    func curlExplicit() async throws {
        let (server, ca) = try start(.explicit)
        defer { server.stop() }
        let base = "ftp://127.0.0.1:\(server.port)"
        let download = try Tools.curl(["--ssl-reqd", "--cacert", ca, "\(base)/file.txt"])
        #expect(download.status == 0, "\(download.stderr)")
        #expect(download.stdout == "Hello from MockServer!\n")
        let pasv = try Tools.curl(["--ssl-reqd", "--cacert", ca, "--disable-epsv", "\(base)/file.txt"])
        #expect(pasv.stdout == "Hello from MockServer!\n", "\(pasv.stderr)")
        let file = try Tools.temporaryDirectory().appendingPathComponent("report.csv")
        let bytes = Tools.randomBytes(300_000, seed: 24)
        try bytes.write(to: file)
        let upload = try Tools.curl(["--ssl-reqd", "--cacert", ca, "-T", file.path, "\(base)/report.csv"])
        #expect(upload.status == 0, "\(upload.stderr)")
        let stored = try await server.waitForUpload(named: "report.csv")
        #expect(stored.data == bytes)
        let listing = try Tools.curl(["--ssl-reqd", "--cacert", ca, "--list-only", "\(base)/"])
        #expect(listing.stdout.contains("report.csv"), "\(listing.stdout)\(listing.stderr)")
        let back = try Tools.curl(["--ssl-reqd", "--cacert", ca, "\(base)/report.csv"])
        #expect(Data(back.stdout.utf8).count > 0 || back.status == 0)
        #expect(dataHandshakes(server) == 5, "\(server.transcript.dump())")
    }

    @Test("curl ftps:// (implicit TLS from the first byte)")
    func curlImplicit() throws {
        let (server, ca) = try start(.implicit)
        defer { server.stop() }
        let result = try Tools.curl(["--cacert", ca, "ftps://127.0.0.1:\(server.port)/file.txt"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Hello from MockServer!\n")
        #expect(dataHandshakes(server) == 1)
    }

    @Test("Python's FTP_TLS with prot_p(), passive and active, and a plain FTP client refused TLS where none is set up")
    func pythonFTPTLS() throws {
        let (server, ca) = try start(.explicit)
        defer { server.stop() }
        let result = try Tools.python("""
            import ftplib, ssl, io
            context = ssl.create_default_context(cafile="\(ca)")
            for passive in [True, False]:
                f = ftplib.FTP_TLS(context=context, timeout=10)
                f.connect("127.0.0.1", \(server.port))
                f.login()
                f.prot_p()
                f.set_pasv(passive)
                f.storbinary("STOR up-%s.bin" % passive, io.BytesIO(b"x" * 70000))
                out = []
                f.retrbinary("RETR up-%s.bin" % passive, out.append)
                print(passive, len(b"".join(out)), sorted(f.nlst()))
                f.quit()
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "True 70000 ['up-True.bin']\nFalse 70000 ['up-False.bin', 'up-True.bin']\n", "\(result.stdout)\(result.stderr)")
        #expect(server.uploads.count == 2)
        // Without an identity, AUTH TLS is refused with 534, as a server without TLS answers.
        let plain = try MockServer(script: BundledResponses.script(named: "ftp"))
        try plain.start()
        defer { plain.stop() }
        let refused = try Tools.python("""
            import ftplib
            f = ftplib.FTP_TLS(timeout=10)
            f.connect("127.0.0.1", \(plain.port))
            try:
                f.auth()
            except ftplib.error_perm as error:
                print(error)
            """)
        #expect(refused.stdout == "534 TLS is not available on this server.\n", "\(refused.stdout)\(refused.stderr)")
    }

    @Test("openssl s_client -starttls ftp: AUTH TLS, the certificate checked against the CA, then the session encrypted")
    func sClientStartTLS() async throws {
        let (server, ca) = try start(.explicit)
        defer { server.stop() }
        let result = try Tools.run("openssl", ["s_client", "-starttls", "ftp", "-connect", "127.0.0.1:\(server.port)", "-CAfile", ca,
                                               "-verify_return_error", "-quiet", "-crlf", "-ign_eof"],
                                   timeout: 30, input: "USER anonymous\nPASS x\nPWD\nQUIT\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("230 User logged in.\r\n257 \"/\" is the current directory.\r\n221 Goodbye.\r\n"), "\(result.stdout)")
        // The commands after AUTH TLS came through the encrypted session.
        let order = server.transcript.entries.compactMap { entry -> String? in
            switch entry.event {
            case .input(let unit, _): unit.text.split(separator: " ").first.map(String.init)
            case .note(let note) where note.kind == "tls-handshake": "handshake"
            default: nil
            }
        }
        #expect(order == ["AUTH", "handshake", "USER", "PASS", "PWD", "QUIT"], "\(order)")
    }

    @Test("requireTLS: a plain-text login gets 530 (ftplib's error_perm, curl's exit 67), one after AUTH TLS is served")
    func requireTLS() throws {
        var configuration = MockServer.Configuration()
        var tls = try TLSSettings.generated(mode: .explicit)
        tls.requireTLS = true
        configuration.tls = tls
        let server = try MockServer(script: BundledResponses.script(named: "ftp"), configuration: configuration)
        try server.start()
        defer { server.stop() }
        let ca = try Tools.temporaryDirectory().appendingPathComponent("ca.pem").path
        try #require(tls.identity.caCertificatePEM).write(toFile: ca, atomically: true, encoding: .utf8)
        let result = try Tools.python("""
            import ftplib, ssl
            plain = ftplib.FTP(timeout=10)
            plain.connect("127.0.0.1", \(server.port))
            try:
                plain.login()
            except ftplib.error_perm as error:
                print(error)
            secure = ftplib.FTP_TLS(context=ssl.create_default_context(cafile="\(ca)"), timeout=10)
            secure.connect("127.0.0.1", \(server.port))
            print(secure.login())
            """)
        #expect(result.stdout == "530 TLS is required: send AUTH TLS first.\n230 User logged in.\n", "\(result.stdout)\(result.stderr)")
        let curl = try Tools.curl(["ftp://127.0.0.1:\(server.port)/file.txt"])
        #expect(curl.status == 67, "\(curl.status): \(curl.stderr)")
        let secure = try Tools.curl(["--ssl-reqd", "--cacert", ca, "ftp://127.0.0.1:\(server.port)/file.txt"])
        #expect(secure.stdout == "Hello from MockServer!\n", "\(secure.stderr)")
    }

    @Test("lftp with ftp:ssl-force and ssl:ca-file: cat, an empty and a full listing, put, and mirror")
    func lftp() throws {
        guard Tools.hasLftp else { return }
        let (server, ca) = try start(.explicit)
        defer { server.stop() }
        let folder = try Tools.temporaryDirectory()
        let local = folder.appendingPathComponent("local.txt")
        try Data("mirrored\n".utf8).write(to: local)
        let settings = "set ssl:ca-file \(ca); set ftp:ssl-force true; set ftp:ssl-protect-data true; set net:max-retries 1; set net:timeout 10"
        let result = try Tools.run("lftp", ["-c", "\(settings); open -u anonymous,x ftp://127.0.0.1:\(server.port); cat file.txt; cls; put \(local.path) -o local.txt; "
                                           + "mirror . \(folder.appendingPathComponent("copy").path)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Hello from MockServer!\n", "\(result.stdout)\(result.stderr)")
        #expect(try String(contentsOf: folder.appendingPathComponent("copy/local.txt"), encoding: .utf8) == "mirrored\n")
    }

    @Test("require_ssl_reuse: a data connection that resumes the control session is served; Python's plain FTP_TLS gets 522, curl (which reuses) is served")
    func requireReuse() throws {
        var configuration = MockServer.Configuration()
        var tls = try TLSSettings.generated(mode: .explicit)
        tls.requireSessionReuse = true
        configuration.tls = tls
        let server = try MockServer(script: BundledResponses.script(named: "ftp"), configuration: configuration)
        try server.start()
        defer { server.stop() }
        let ca = try Tools.temporaryDirectory().appendingPathComponent("ca.pem").path
        try #require(tls.identity.caCertificatePEM).write(toFile: ca, atomically: true, encoding: .utf8)
        let result = try Tools.python("""
            import ftplib, ssl
            class ReusingFTP_TLS(ftplib.FTP_TLS):
                # As users write it: the data connection resumes the control connection's session.
                def ntransfercmd(self, cmd, rest=None):
                    conn, size = ftplib.FTP.ntransfercmd(self, cmd, rest)
                    if self._prot_p:
                        conn = self.context.wrap_socket(conn, server_hostname=self.host, session=self.sock.session)
                    return conn, size
            context = ssl.create_default_context(cafile="\(ca)")
            for kind in [ftplib.FTP_TLS, ReusingFTP_TLS]:
                f = kind(context=context, timeout=10)
                f.connect("localhost", \(server.port))
                f.login()
                f.prot_p()
                f.voidcmd("NOOP")  # the control connection's session tickets arrive with a reply
                try:
                    out = []
                    f.retrbinary("RETR file.txt", out.append)
                    print(kind.__name__, b"".join(out).decode().strip())
                except ftplib.error_perm as error:
                    print(kind.__name__, error)
                except (ssl.SSLError, OSError) as error:
                    print(kind.__name__, "failed:", type(error).__name__, f.getresp() if False else "")
                f.close()
            """)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last == "ReusingFTP_TLS Hello from MockServer!", "\(result.stdout)\(result.stderr)")
        #expect(lines.first?.hasPrefix("FTP_TLS") == true && lines.first?.contains("Hello") == false, "\(result.stdout)")
        let refusal = server.transcript.entries.contains { entry in
            if case .output(let bytes) = entry.event { String(decoding: bytes, as: UTF8.self).hasPrefix("522 ") } else { false }
        }
        #expect(refusal, "\(server.transcript.dump())")
        let curl = try Tools.curl(["--ssl-reqd", "--cacert", ca, "ftp://localhost:\(server.port)/file.txt"])
        #expect(curl.stdout == "Hello from MockServer!\n", "\(curl.stderr)")
    }
}
