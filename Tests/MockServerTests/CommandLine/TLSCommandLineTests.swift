import Foundation
import Testing
import TestSupport
import MockServerResponses
import MockServer

/// `mockserver --tls` and `--starttls`: the flags, the CA file and the admin API's copy of it.
@Suite("mockserver --tls", .offPool)
struct TLSCommandLineTests {
    /// The port of an HTTP mock's `mockserver listening on HOST:PORT` (no data port).
    private func httpPort(_ command: RunningCommand) -> UInt16? {
        command.firstLine.split(separator: ":").last.flatMap { UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    @Test("--tls --tls-ca-out: HTTPS with the bundled HTTP script, the first line as without TLS, the CA from the admin API too")
    func implicit() throws {
        let ca = try Tools.temporaryDirectory().appendingPathComponent("ca.pem").path
        let http = try #require(BundledResponses.url(named: "http")).path
        let command = try RunningCommand(["--tls", "--tls-ca-out", ca, "--admin", http])
        defer { _ = command.terminate() }
        #expect(command.firstLine.hasPrefix("mockserver listening on 127.0.0.1:") && !command.firstLine.contains("data port"), "\(command.firstLine)")
        let port = try #require(httpPort(command), "\(command.firstLine)")
        let admin = try #require(command.nextLine().split(separator: " ").last.map(String.init))
        let page = try Tools.curl(["-u", "user:pass", "--cacert", ca, "-o", "/dev/null", "-w", "%{http_code}", "https://127.0.0.1:\(port)/"])
        #expect(page.stdout == "200", "\(page.stderr)")
        let served = try Tools.curl([admin + "tls/ca.pem"])
        #expect(served.stdout == (try String(contentsOfFile: ca, encoding: .utf8)))
        #expect(served.stdout.hasPrefix("-----BEGIN CERTIFICATE-----"))
    }

    @Test("--starttls: the bundled FTP script serves FTPS to curl --ssl-reqd")
    func explicit() throws {
        let ca = try Tools.temporaryDirectory().appendingPathComponent("ca.pem").path
        let command = try RunningCommand(["--starttls", "--tls-ca-out", ca])
        defer { _ = command.terminate() }
        let (port, _) = try #require(command.ports)
        let result = try Tools.curl(["--ssl-reqd", "--cacert", ca, "ftp://127.0.0.1:\(port)/file.txt"])
        #expect(result.stdout == "Hello from MockServer!\n", "\(result.stderr)")
    }

    @Test("bad TLS arguments are refused with exit 64, naming the culprit", arguments: [
        (["--tls", "--starttls"], "--tls and --starttls exclude each other"),
        (["--tls-ca-out", "/tmp/x.pem"], "--tls-ca-out needs --tls or --starttls"),
        (["--tls", "--tls-cert", "/tmp/c.pem"], "--tls-cert and --tls-key go together"),
        (["--tls", "--tls-fault", "broken"], "--tls-fault takes expired, not-yet-valid, wrong-host, self-signed, hang, reset, alert, no-close-notify, not \"broken\""),
        (["--tls-fault", "alert"], "--tls-fault needs --tls or --starttls"),
        (["--tls-required"], "--tls-required needs --tls or --starttls"),
        (["--tls-handshake-timeout", "30"], "--tls-handshake-timeout needs --tls or --starttls"),
        (["--tls", "--tls-handshake-timeout", "0"], "--tls-handshake-timeout takes seconds above 0, at most 3600, not \"0\""),
    ])
    func badArguments(arguments: [String], message: String) throws {
        let result = try Tools.run(Tools.mockserver.path, arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("--tls-fault alert: curl meets a fatal alert after its ClientHello, which the transcript names")
    func handshakeFault() throws {
        let ca = try Tools.temporaryDirectory().appendingPathComponent("ca.pem").path
        let http = try #require(BundledResponses.url(named: "http")).path
        let command = try RunningCommand(["--tls", "--tls-ca-out", ca, "--tls-fault", "alert", "--verbose", http])
        defer { _ = command.terminate() }
        let port = try #require(httpPort(command), "\(command.firstLine)")
        let result = try Tools.curl(["--cacert", ca, "https://127.0.0.1:\(port)/"])
        #expect(result.status == 35 && result.stderr.contains("alert handshake failure"), "\(result.status): \(result.stderr)")
        let (_, output) = command.terminate()
        #expect(output.contains("TLS fault: alert"), "\(output)")
    }

    @Test("--tls-cert and --tls-key serve your own certificate; an unreadable one exits 65 naming the file")
    func ownCertificate() throws {
        let folder = try Tools.temporaryDirectory()
        let certificate = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        let made = try Tools.run("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                                             "-subj", "/CN=own.test", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate])
        #expect(made.status == 0, "\(made.stderr)")
        let http = try #require(BundledResponses.url(named: "http")).path
        let command = try RunningCommand(["--tls", "--tls-cert", certificate, "--tls-key", key, http])
        defer { _ = command.terminate() }
        let port = try #require(httpPort(command), "\(command.firstLine)")
        let page = try Tools.curl(["-u", "user:pass", "--cacert", certificate, "-o", "/dev/null", "-w", "%{http_code}", "https://127.0.0.1:\(port)/"])
        #expect(page.stdout == "200", "\(page.stderr)")
        let missing = try Tools.run(Tools.mockserver.path, ["--tls", "--tls-cert", folder.appendingPathComponent("none.pem").path, "--tls-key", key])
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("none.pem cannot be read"), "\(missing.stderr)")
    }
}
