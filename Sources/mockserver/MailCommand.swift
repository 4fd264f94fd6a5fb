import Foundation
import MockServer
import MockServerMail
import MockServerMailScript

/// `mockserver mail …`: SMTP, POP3 and IMAP over one mailbox, as the options say.
struct MailCommand {
    let options: MailOptions

    /// The mail server the options describe, stopped.
    ///
    /// - Throws: ``CommandLineError`` naming the option at fault (an unreadable seed, TLS that
    ///   cannot be set up, a CA file or transcript that cannot be written).
    func server() throws(CommandLineError) -> MailServer {
        var configuration = MailServerConfiguration()
        configuration.host = options.host
        configuration.smtpPort = options.smtpPort
        configuration.pop3Port = options.pop3Port
        configuration.imapPort = options.imapPort
        configuration.hiddenIMAPCapabilities = Set(options.hiddenCapabilities)
        configuration.tlsRequired = options.tlsRequired
        configuration.conditions = options.conditions
        if let maximum = options.maximumSize { configuration.maximumMessageSize = maximum }
        guard let users = MailUsers(arguments: options.users) else { throw .usage("mail: --user takes ADDRESS:PASSWORD") }
        configuration.users = users
        if let directory = options.mailDirectory {
            do {
                configuration.seed = try MailSeed(directory: URL(fileURLWithPath: directory))
            } catch {
                throw .unreadable(path: directory, reason: "\(error)")
            }
        }
        configuration.tls = try tls()
        for path in options.scripts {
            do {
                configuration.scripts.append(try ResponseScript(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                throw .responseFile(error)
            }
        }
        configuration.transcriptObserver = try TranscriptOutput.observer(path: options.transcriptFile, verbose: options.verbose) { path in
            .unreadable(path: path, reason: "cannot create the transcript file")
        }
        do {
            return try MailServer(configuration)
        } catch {
            throw .responseFile(error)
        }
    }

    /// The listeners' TLS: a generated test identity, its CA written to `--tls-ca-out`.
    private func tls() throws(CommandLineError) -> TLSSettings? {
        guard options.security != .plain else { return nil }
        let identity: TLSSettings.Identity
        do {
            identity = try .generated()
        } catch {
            throw .tls(error)
        }
        try CertificateAuthorityFile.write(identity, to: options.tlsCAOut)
        return TLSSettings(identity: identity, mode: options.security == .implicit ? .implicit : .explicit)
    }
}
