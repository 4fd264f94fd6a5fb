import Foundation
import Testing

/// A real Dovecot serving POP3 on loopback over a copy of a mail seed (`DIR/ADDRESS/` Maildirs, as
/// `mockserver mail --mail-dir` reads them), for the life of the object: the control that our
/// POP3 server's client tests also pass against. Any user logs in with any password (a static
/// passdb without passwords), as our server does without `--user`; with `starttls`, STLS is
/// offered with the given certificate and key, and `implicitTLS` adds a pop3s listener.
public final class Dovecot {
    /// POP3's port.
    public let port: UInt16
    /// pop3s's port, when asked for.
    public let tlsPort: UInt16?
    /// The mail folders Dovecot serves (a copy of the seed: Dovecot moves new/ to cur/).
    public let mail: URL
    private let directory: URL
    private let process: ChildProcess
    /// Signalled once Dovecot's log pipe has ended, before the pipe may be closed.
    private let drained = DispatchSemaphore(value: 0)

    /// Whether Dovecot is installed.
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/sbin/dovecot") }

    /// Starts Dovecot over a copy of `seed`; connections made once this returns are served.
    ///
    /// - Parameter tls: PEM certificate and key files: STLS offered, and a pop3s listener.
    public init(seed: URL, tls: (certificate: String, key: String)? = nil) throws {
        guard Self.isAvailable else { throw DovecotError("dovecot is not installed (apt-get install dovecot-pop3d)") }
        directory = try Tools.temporaryDirectory()
        mail = directory.appendingPathComponent("mail", isDirectory: true)
        try FileManager.default.copyItem(at: seed, to: mail)
        for name in ["run", "state", "home"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        // Dovecot will not deliver mail as root: as root, the mail belongs to its own dovenull user.
        let user = getuid() == 0 ? "dovenull" : (ProcessInfo.processInfo.environment["USER"] ?? "nobody")
        if getuid() == 0 { _ = try Tools.run("/bin/chown", ["-R", "dovenull:", mail.path, directory.appendingPathComponent("home").path]) }
        port = try Self.freePort()
        tlsPort = tls == nil ? nil : try Self.freePort()
        let tlsSettings = tls.map { "ssl = yes\nssl_cert = <\($0.certificate)\nssl_key = <\($0.key)\n" } ?? "ssl = no\n"
        let secure = tlsPort.map { "  inet_listener pop3s {\n    address = 127.0.0.1\n    port = \($0)\n  }\n" } ?? ""
        let configuration = """
            base_dir = \(directory.path)/run
            state_dir = \(directory.path)/state
            log_path = /dev/stderr
            protocols = pop3
            listen = 127.0.0.1
            \(tlsSettings)
            disable_plaintext_auth = no
            auth_mechanisms = plain login
            first_valid_uid = 0
            mail_uid = \(user)
            mail_gid = \(user)
            mail_location = maildir:\(mail.path)/%u
            pop3_uidl_format = %08Xu%08Xv
            passdb {
              driver = static
              args = nopassword=y
            }
            userdb {
              driver = static
              args = uid=\(user) gid=\(user) home=\(directory.path)/home/%u
            }
            service pop3-login {
              chroot =
              inet_listener pop3 {
                address = 127.0.0.1
                port = \(port)
              }
            \(secure)}
            service anvil {
              chroot =
            }
            """
        let file = directory.appendingPathComponent("dovecot.conf")
        try Data(configuration.utf8).write(to: file)
        process = try ChildProcess("/usr/sbin/dovecot", ["-F", "-c", file.path])
        // The master binds its listeners, then says it is starting up: the ports are open after that line.
        var seen: [String] = []
        while true {
            let line = PipeReading.readLine(process.errors)
            if line.contains("starting up") { break }
            seen.append(line)
            if line.isEmpty, !process.isRunning { throw DovecotError("dovecot did not start: \(seen.joined(separator: "\n"))") }
        }
        // Its log goes on arriving on the pipe: read to its end, so that Dovecot never blocks on a full pipe.
        let errors = process.errors
        let drained = self.drained
        Thread.detachNewThread {
            while PipeReading.readByte(errors) != nil {}
            drained.signal()
        }
    }

    /// Stops Dovecot (also done when the object goes away).
    public func stop() {
        guard process.isRunning else { return }
        process.send(SIGTERM)
        process.wait()
        // Its children end with it; the pipe then ends, and only then may it be closed.
        _ = drained.wait(timeout: .now() + 10)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A port no one listens on now (Dovecot takes no inherited socket).
    private static func freePort() throws -> UInt16 {
        let result = try Tools.python("import socket\ns = socket.socket()\ns.bind(('127.0.0.1', 0))\nprint(s.getsockname()[1])")
        guard let port = UInt16(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw DovecotError("no free port: \(result)") }
        return port
    }
}

/// Why Dovecot could not be used.
public struct DovecotError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
