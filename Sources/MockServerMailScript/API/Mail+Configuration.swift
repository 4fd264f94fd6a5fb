import Foundation
import MockServerCore
import MockServerEngine
import MockServerMail
import MockServerScript
import MockServerTLS

extension MockServer.Mail {
    /// How a mail server listens and whom it lets in.
    public struct Configuration: Sendable {
        /// The numeric address the listeners bind: `127.0.0.1` by default.
        public var host = "127.0.0.1"
        /// SMTP's port; 0 (the default) lets the system pick one.
        public var smtpPort: UInt16 = 0
        /// POP3's port; 0 (the default) lets the system pick one.
        public var pop3Port: UInt16 = 0
        /// IMAP's port; 0 (the default) lets the system pick one.
        public var imapPort: UInt16 = 0
        /// IMAP capabilities the server acts as if it lacked (`"MOVE"`, `"IDLE"`, `"UIDPLUS"`,
        /// `"CONDSTORE"`, …): left out of CAPABILITY and their commands refused, so that a client's
        /// fallbacks can be tested. Empty by default.
        public var hiddenIMAPCapabilities: Set<String> = []
        /// TLS: ``TLSSettings/Mode-swift.enum/implicit`` makes every listener TLS from the first
        /// byte (smtps, pop3s, imaps); ``TLSSettings/Mode-swift.enum/explicit`` offers STARTTLS and STLS.
        /// `nil` (the default): plain text only.
        public var tls: TLSSettings?
        /// Whether commands other than those the RFCs allow before TLS are refused until STARTTLS
        /// (on loopback too). It needs ``tls`` in its `.explicit` mode: without TLS there is nothing
        /// to require, and the server serves plain text as if it were false.
        public var requiresTLS = false
        /// The accounts that may log in, address to password (XOAUTH2's token is the password).
        /// Empty (the default): any login and password read the mailbox of the address logged in as.
        public var accounts: [String: String] = [:]
        /// A folder to seed the mailbox from: `SEED/ADDRESS/` is a Maildir, or a folder of `.eml` files.
        public var seed: URL?
        /// The largest message taken (SMTP's SIZE): 10,240,000 bytes by default, as Postfix's.
        public var maximumMessageSize = 10_240_000
        /// Latency and bandwidth for every connection.
        public var conditions: NetworkConditions?
        /// The seed that failures with a probability draw from, so that a test fails the same calls on
        /// every run; `nil` (the default): a random one.
        public var faultSeed: UInt64?
        /// Response scripts tried before the server, each on the protocol its `scheme` names (`smtp`,
        /// `pop3` or `imap`): its patterns answer the command lines they take (the greeting too, with
        /// `«initial»`), the server the rest. Empty by default.
        public var scripts: [ResponseScript] = []

        /// The defaults: plain SMTP, POP3 and IMAP on loopback, on ports the system picks, open to anyone.
        public init() {}

        /// The mail server's own configuration.
        func serverConfiguration() throws(MockServer.Mail.SeedError) -> MailServerConfiguration {
            var configuration = MailServerConfiguration()
            configuration.host = host
            configuration.smtpPort = smtpPort
            configuration.pop3Port = pop3Port
            configuration.imapPort = imapPort
            configuration.hiddenIMAPCapabilities = Set(hiddenIMAPCapabilities.map { $0.uppercased() })
            configuration.tls = tls
            configuration.tlsRequired = requiresTLS
            configuration.users = MailUsers(accounts: Dictionary(accounts.map { (MailboxAddress($0.key), $0.value) }) { _, last in last })
            configuration.maximumMessageSize = maximumMessageSize
            configuration.conditions = conditions
            configuration.scripts = scripts
            if let seed {
                do {
                    configuration.seed = try MailSeed(directory: seed)
                } catch {
                    throw MockServer.Mail.SeedError(description: error.description)
                }
            }
            return configuration
        }
    }
}
