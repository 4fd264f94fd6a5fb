import MockServerCore
import MockServerEngine
import MockServerMail
import MockServerScript

/// A fake mail server: SMTP takes messages into one ``MailStore``, which POP3 reads, each protocol
/// on its own listener of the same loop machinery, TLS, conditions and transcript as every server.
///
/// ```swift
/// let mail = try MailServer(MailServerConfiguration())
/// try mail.start()
/// defer { mail.stop() }
/// // send to 127.0.0.1:\(mail.smtp.port), read 127.0.0.1:\(mail.pop3.port)
/// ```
package final class MailServer: Sendable {
    /// The one mailbox both protocols share.
    package let store: MailStore
    /// The failures given on demand, at any verb of either protocol.
    package let faults: MailFaultPlan
    /// SMTP's server.
    package let smtp: MockServer
    /// POP3's server.
    package let pop3: MockServer
    /// How it was configured.
    package let configuration: MailServerConfiguration

    /// A stopped mail server, configured as `configuration` says.
    package init(_ configuration: MailServerConfiguration, faults: MailFaultPlan = MailFaultPlan()) {
        self.configuration = configuration
        self.faults = faults
        let store = MailStore(users: configuration.users, seed: configuration.seed)
        self.store = store
        smtp = Self.server(serving: .smtp(store: store, faults: faults, configuration: configuration), port: configuration.smtpPort, configuration)
        pop3 = Self.server(serving: .pop3(store: store, faults: faults, configuration: configuration), port: configuration.pop3Port, configuration)
    }

    /// Binds both listeners and starts serving; on a failure neither is left running.
    package func start() throws {
        try smtp.start()
        do {
            try pop3.start()
        } catch {
            smtp.stop()
            throw error
        }
    }

    /// Stops both listeners and closes their connections.
    package func stop() {
        smtp.stop()
        pop3.stop()
    }

    /// One protocol's server on `port`.
    private static func server(serving: MailServingProtocol, port: UInt16, _ mail: MailServerConfiguration) -> MockServer {
        var configuration = MockServer.Configuration(host: mail.host, port: port, serverName: mail.hostName,
                                                     transcriptObserver: mail.transcriptObserver, logger: mail.logger)
        configuration.tls = mail.tls
        configuration.conditions = mail.conditions
        return MockServer(responder: PatternResponder([]), configuration: configuration, vocabulary: ScriptVocabulary([]), serving: serving)
    }
}
