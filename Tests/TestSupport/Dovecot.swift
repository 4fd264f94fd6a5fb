import Foundation
import Testing

/// A real Dovecot serving POP3 and IMAP on loopback over a copy of a mail seed (`DIR/ADDRESS/`
/// Maildirs with Maildir++ subfolders, as `mockserver mail --mail-dir` reads them), for the life of
/// the object: the control that our POP3 and IMAP servers' client tests also pass against.
///
/// Without `users`, any user logs in with any password (a static passdb without passwords), as our
/// server does without `--user`; with `tls`, STLS and STARTTLS are offered with the given
/// certificate and key, and pop3s and imaps listeners added.
///
/// IMAP sees the seed as our server reads it: the Maildir++ layout (Dovecot's default for
/// `maildir:`, not `LAYOUT=fs`) keeps a subfolder in `.Archive.2026`, and the `inbox` namespace's
/// separator `/` shows it as `Archive/2026`; folders named `Sent`, `Drafts`, `Trash`, `Junk` and
/// `Archive` carry that special use (RFC 6154), as our contract says.
public final class Dovecot {
    /// POP3's port.
    public let port: UInt16
    /// pop3s's port, when asked for.
    public let tlsPort: UInt16?
    /// IMAP's port (STARTTLS offered when there is TLS).
    public let imapPort: UInt16
    /// imaps's port, when asked for.
    public let imapTLSPort: UInt16?
    /// The address a client that must not use TLS connects to. Dovecot counts a connection whose
    /// remote and local addresses are the same (`127.0.0.1` to `127.0.0.1`) as secure and lets it
    /// log in without TLS whatever `tlsRequired` says; a connection to `127.0.0.2` comes from
    /// `127.0.0.1` (Linux's source address for the loopback net), so there the refusal shows.
    public let plainHost: String
    /// The mail folders Dovecot serves (a copy of the seed: Dovecot moves new/ to cur/).
    public let mail: URL
    private let directory: URL
    private let process: ChildProcess
    /// The user Dovecot's mail processes run as, who must own what is written into the mail folders.
    private let mailUser: String
    /// Signalled once Dovecot's log pipe has ended, before the pipe may be closed.
    private let drained = DispatchSemaphore(value: 0)

    /// Whether Dovecot is installed.
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/sbin/dovecot") }

    /// Whether Dovecot's IMAP server (Debian's `dovecot-imapd`) is installed.
    public static var hasIMAP: Bool { isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/lib/dovecot/imap") }

    /// Starts Dovecot over a copy of `seed`; connections made once this returns are served.
    ///
    /// - Parameters:
    ///   - tls: PEM certificate and key files: STLS and STARTTLS offered, pop3s and imaps listeners.
    ///   - users: passwords by user name; nil lets anyone in with any password.
    ///   - tlsRequired: no plaintext login before TLS (`disable_plaintext_auth`), on ``plainHost``.
    public init(seed: URL, tls: (certificate: String, key: String)? = nil, users: [String: String]? = nil, tlsRequired: Bool = false) throws {
        guard Self.isAvailable else { throw DovecotError("dovecot is not installed (apt-get install dovecot-pop3d dovecot-imapd)") }
        directory = try Tools.temporaryDirectory()
        mail = directory.appendingPathComponent("mail", isDirectory: true)
        // `cp -a`, not FileManager's copy, which does not keep a file's modification time: Dovecot's
        // internal date of a Maildir message.
        _ = try Tools.run("/bin/cp", ["-a", seed.path, mail.path])
        for name in ["run", "state", "home"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        // Dovecot will not deliver mail as root: as root, the mail belongs to its own dovenull user.
        let user = getuid() == 0 ? "dovenull" : (ProcessInfo.processInfo.environment["USER"] ?? "nobody")
        mailUser = user
        if getuid() == 0 { _ = try Tools.run("/bin/chown", ["-R", "dovenull:", mail.path, directory.appendingPathComponent("home").path]) }
        // On `::1` too where there is one: a client of `localhost` may try `::1` first, and must not
        // find another program there on the same port number.
        let loopbacks = Tools.hasIPv6Loopback ? "127.0.0.1 ::1" : "127.0.0.1"
        plainHost = tlsRequired ? "127.0.0.2" : "127.0.0.1"
        // With TLS required, the plain listeners also take 127.0.0.2, where a login without TLS is not
        // counted as secure (Linux answers on all of 127/8; macOS has only 127.0.0.1 unless told).
        let plainAddresses = tlsRequired ? "\(loopbacks) 127.0.0.2" : loopbacks
        let tlsSettings = tls.map { "ssl = yes\nssl_cert = <\($0.certificate)\nssl_key = <\($0.key)\n" } ?? "ssl = no\n"
        // Ports are found free, then bound by Dovecot a moment later: another test may take one in
        // between, and then Dovecot starts again on new ones.
        var launched: (ports: [UInt16], process: ChildProcess)?
        for attempt in 1...5 {
            let ports = try Self.freePorts(4, ipv6: Tools.hasIPv6Loopback)
            let pop3s = (tls == nil ? nil : ports[1]).map { "  inet_listener pop3s {\n    address = \(loopbacks)\n    port = \($0)\n  }\n" } ?? ""
            let imaps = (tls == nil ? nil : ports[3]).map { "  inet_listener imaps {\n    address = \(loopbacks)\n    port = \($0)\n  }\n" } ?? ""
            let passdb: String
            if let users {
                let file = directory.appendingPathComponent("passwd")
                let lines = users.sorted { $0.key < $1.key }.map { "\($0.key):{PLAIN}\($0.value)\n" }
                try Data(lines.joined().utf8).write(to: file)
                passdb = "driver = passwd-file\n  args = scheme=PLAIN \(file.path)"
            } else {
                passdb = "driver = static\n  args = nopassword=y"
            }
            let specialUse = ["Sent", "Drafts", "Trash", "Junk", "Archive"].map { "  mailbox \($0) {\n    special_use = \\\($0)\n  }\n" }.joined()
            let configuration = """
                base_dir = \(directory.path)/run
                state_dir = \(directory.path)/state
                log_path = /dev/stderr
                protocols = imap pop3
                listen = 127.0.0.1
                \(tlsSettings)
                disable_plaintext_auth = \(tlsRequired ? "yes" : "no")
                auth_mechanisms = plain login
                auth_failure_delay = 0
                first_valid_uid = 0
                mail_uid = \(user)
                mail_gid = \(user)
                mail_location = maildir:\(mail.path)/%u
                pop3_uidl_format = %08Xu%08Xv
                mail_max_userip_connections = 100
                mailbox_idle_check_interval = 1 secs
                namespace inbox {
                  inbox = yes
                  separator = /
                \(specialUse)}
                passdb {
                  \(passdb)
                }
                userdb {
                  driver = static
                  args = uid=\(user) gid=\(user) home=\(directory.path)/home/%u
                }
                service pop3-login {
                  chroot =
                  inet_listener pop3 {
                    address = \(plainAddresses)
                    port = \(ports[0])
                  }
                \(pop3s)}
                service imap-login {
                  chroot =
                  inet_listener imap {
                    address = \(plainAddresses)
                    port = \(ports[2])
                  }
                \(imaps)}
                service anvil {
                  chroot =
                }
                """
            let file = directory.appendingPathComponent("dovecot.conf")
            try Data(configuration.utf8).write(to: file)
            let child = try ChildProcess("/usr/sbin/dovecot", ["-F", "-c", file.path])
            // The master binds its listeners, then says it is starting up: the ports are open after that line.
            var seen: [String] = []
            while true {
                let line = PipeReading.readLine(child.errors)
                if line.contains("starting up") {
                    launched = (ports, child)
                    break
                }
                seen.append(line)
                if line.isEmpty, !child.isRunning { break }
            }
            if launched != nil { break }
            // A port found free was taken by another test's server before Dovecot bound it: new ports.
            let log = seen.joined(separator: "\n")
            guard log.contains("Address already in use"), attempt < 5 else { throw DovecotError("dovecot did not start: \(log)") }
        }
        guard let launched else { throw DovecotError("dovecot did not start") }
        port = launched.ports[0]
        tlsPort = tls == nil ? nil : launched.ports[1]
        imapPort = launched.ports[2]
        imapTLSPort = tls == nil ? nil : launched.ports[3]
        process = launched.process
        // Its log goes on arriving on the pipe: read to its end, so that Dovecot never blocks on a full pipe.
        let errors = process.errors
        let drained = self.drained
        Thread.detachNewThread {
            while PipeReading.readByte(errors) != nil {}
            drained.signal()
        }
    }

    /// Delivers `raw` to `user`'s `folder` (nil: INBOX) as a mail delivery agent would: written to
    /// the Maildir's tmp/, then moved into new/, where Dovecot finds it (an idling client is told).
    public func deliver(_ raw: Data, to user: String, folder: String? = nil) throws {
        var maildir = mail.appendingPathComponent(user, isDirectory: true)
        if let folder { maildir = maildir.appendingPathComponent("." + folder.replacingOccurrences(of: "/", with: "."), isDirectory: true) }
        let name = "\(Int(Date().timeIntervalSince1970)).M\(UInt32.random(in: 0...UInt32.max))P\(getpid()).test"
        let temporary = maildir.appendingPathComponent("tmp").appendingPathComponent(name)
        try raw.write(to: temporary)
        if getuid() == 0 { try FileManager.default.setAttributes([.ownerAccountName: mailUser, .groupOwnerAccountName: mailUser], ofItemAtPath: temporary.path) }
        try FileManager.default.moveItem(at: temporary, to: maildir.appendingPathComponent("new").appendingPathComponent(name))
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

    /// `count` different ports no one listens on now, on `127.0.0.1` nor, with `ipv6`, on `::1`
    /// (Dovecot takes no inherited socket), asked of one Python run: each socket stays bound until
    /// all are chosen.
    private static func freePorts(_ count: Int, ipv6: Bool) throws -> [UInt16] {
        let result = try Tools.python("""
            import socket
            chosen, held = [], []
            while len(chosen) < \(count):
                s = socket.socket()
                s.bind(('127.0.0.1', 0))
                held.append(s)
                port = s.getsockname()[1]
                if \(ipv6 ? "True" : "False"):
                    t = socket.socket(socket.AF_INET6)
                    try:
                        t.bind(('::1', port))
                    except OSError:
                        continue
                    held.append(t)
                chosen.append(port)
            print(' '.join(str(port) for port in chosen))
            """)
        let ports = result.stdout.split(separator: " ").compactMap { UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard ports.count == count else { throw DovecotError("no free ports: \(result)") }
        return ports
    }
}

/// Why Dovecot could not be used.
public struct DovecotError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
