import Foundation
import MockServerMail
import MockServerMailScript
import MockServerTLS
import TestSupport

/// A started mail server for a client test, with the files a client needs: the test CA, and the
/// seed folder it was started with.
final class MailTestServer {
    let mail: MailServer
    /// The test CA (PEM), when the server has TLS.
    let caFile: String?
    /// The leaf certificate and key (PEM), for a control server that must show the same identity.
    let certificateFile: String?
    let keyFile: String?

    var smtpPort: UInt16 { mail.smtp.port }
    var pop3Port: UInt16 { mail.pop3.port }
    var store: MailStore { mail.store }

    /// Starts a mail server configured by `configure`, with a generated identity for `tls`.
    init(tls: TLSSettings.Mode? = nil, faults: MailFaultPlan = MailFaultPlan(), _ configure: (inout MailServerConfiguration) throws -> Void = { _ in }) throws {
        var configuration = MailServerConfiguration()
        if let tls {
            let settings = try TLSSettings.generated(mode: tls)
            let folder = try Tools.temporaryDirectory()
            let ca = folder.appendingPathComponent("ca.pem").path
            try (settings.identity.caCertificatePEM ?? "").write(toFile: ca, atomically: true, encoding: .utf8)
            caFile = ca
            certificateFile = nil
            keyFile = nil
            configuration.tls = settings
        } else {
            caFile = nil
            certificateFile = nil
            keyFile = nil
        }
        try configure(&configuration)
        mail = try MailServer(configuration, faults: faults)
        try mail.start()
    }

    deinit { mail.stop() }

    /// A Maildir seed: `messages[address]` are the raw messages of that address's INBOX (in cur/, seen).
    static func seed(_ messages: [String: [String]]) throws -> URL {
        let root = try Tools.temporaryDirectory().appendingPathComponent("seed", isDirectory: true)
        for (address, raws) in messages {
            let maildir = root.appendingPathComponent(address, isDirectory: true)
            for sub in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true)
            }
            for (index, raw) in raws.enumerated() {
                let name = "\(1_700_000_000 + index).M\(index)P1.seed:2,S"
                try Data(raw.utf8).write(to: maildir.appendingPathComponent("cur").appendingPathComponent(name))
            }
        }
        return root
    }
}
