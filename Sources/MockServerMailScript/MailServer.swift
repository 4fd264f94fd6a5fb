import MockServerCore
import MockServerEngine
import MockServerMail
import MockServerScript

/// A fake mail server: SMTP takes messages into one ``MailStore``, which POP3 and IMAP read, each protocol
/// on its own listener of the same loop machinery, TLS, conditions and transcript as every server.
///
/// ```swift
/// let mail = try MailServer(MailServerConfiguration())
/// try mail.start()
/// defer { mail.stop() }
/// // send to 127.0.0.1:\(mail.smtp.port), read 127.0.0.1:\(mail.pop3.port) or \(mail.imap.port)
/// ```
package final class MailServer: Sendable {
    /// The one mailbox the protocols share.
    package let store: MailStore
    /// The failures given on demand, at any verb of either protocol.
    package let faults: MailFaultPlan
    /// SMTP's server.
    package let smtp: MockServer
    /// POP3's server.
    package let pop3: MockServer
    /// IMAP's server.
    package let imap: MockServer
    /// How it was configured.
    package let configuration: MailServerConfiguration

    /// A stopped mail server, configured as `configuration` says.
    ///
    /// - Throws: ``ResponseFileError`` for a script whose scheme is not `smtp`, `pop3` or `imap` (nor
    ///   their TLS forms), or two scripts for one protocol, or one whose default set names a missing response.
    package init(_ configuration: MailServerConfiguration, faults: MailFaultPlan = MailFaultPlan()) throws(ResponseFileError) {
        self.configuration = configuration
        self.faults = faults
        let store = MailStore(users: configuration.users, seed: configuration.seed)
        self.store = store
        var scripts: [String: ResponseScript] = [:]
        for script in configuration.scripts {
            let scheme = script.scheme?.lowercased() ?? ""
            guard let name = ["smtp": "smtp", "smtps": "smtp", "pop3": "pop3", "pop3s": "pop3", "imap": "imap", "imaps": "imap"][scheme] else {
                throw ResponseFileError(.invalidValue(path: "scheme", reason: "a mail server's script says \"scheme\": \"smtp\", \"pop3\" or \"imap\" (it names the protocol it stands in for), not \"\(script.scheme ?? "")\""), file: script.file)
            }
            guard scripts[name] == nil else {
                throw ResponseFileError(.invalidValue(path: "scheme", reason: "a second script for \(name): one script a protocol"), file: script.file)
            }
            scripts[name] = script
        }
        smtp = try Self.server(serving: .smtp(store: store, faults: faults, configuration: configuration, scriptFirst: scripts["smtp"] != nil),
                               script: scripts["smtp"], port: configuration.smtpPort, configuration)
        pop3 = try Self.server(serving: .pop3(store: store, faults: faults, configuration: configuration, scriptFirst: scripts["pop3"] != nil),
                               script: scripts["pop3"], port: configuration.pop3Port, configuration)
        imap = try Self.server(serving: .imap(store: store, faults: faults, configuration: configuration, scriptFirst: scripts["imap"] != nil),
                               script: scripts["imap"], port: configuration.imapPort, configuration)
    }

    /// Binds the listeners and starts serving; on a failure none is left running.
    package func start() throws {
        var started: [MockServer] = []
        do {
            for server in [smtp, pop3, imap] {
                try server.start()
                started.append(server)
            }
        } catch {
            for server in started { server.stop() }
            throw error
        }
    }

    /// Stops the listeners and closes their connections.
    package func stop() {
        smtp.stop()
        pop3.stop()
        imap.stop()
    }

    /// One protocol's server on `port`, answering with `script` first when there is one.
    private static func server(serving: MailServingProtocol, script: ResponseScript?, port: UInt16, _ mail: MailServerConfiguration) throws(ResponseFileError) -> MockServer {
        var configuration = MockServer.Configuration(host: mail.host, port: port, serverName: mail.hostName,
                                                     transcriptObserver: mail.transcriptObserver, logger: mail.logger)
        configuration.tls = mail.tls
        configuration.conditions = mail.conditions
        let responder = try script.map { script throws(ResponseFileError) in try PatternResponder(script: script) } ?? PatternResponder([])
        return MockServer(responder: responder, configuration: configuration, vocabulary: ScriptVocabulary([]), serving: serving)
    }
}
