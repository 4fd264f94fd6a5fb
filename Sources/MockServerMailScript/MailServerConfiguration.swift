import Foundation
import MockServerCore
import MockServerMail
import MockServerScript
import MockServerTLS

/// How a mail server (SMTP, POP3 and IMAP over one mailbox) listens and behaves: `mockserver mail`'s
/// options, and what a test sets from Swift.
package struct MailServerConfiguration: Sendable {
    /// The numeric address both listeners bind.
    package var host = "127.0.0.1"
    /// SMTP's port; 0 lets the system pick one.
    package var smtpPort: UInt16 = 0
    /// POP3's port; 0 lets the system pick one.
    package var pop3Port: UInt16 = 0
    /// IMAP's port; 0 lets the system pick one.
    package var imapPort: UInt16 = 0
    /// IMAP capabilities the server acts as if it lacked (`MOVE`, `IDLE`, `UIDPLUS`, …), so that a
    /// client's fallbacks can be tested: left out of CAPABILITY, their commands refused.
    package var hiddenIMAPCapabilities: Set<String> = []
    /// The name the server gives itself in greetings and EHLO.
    package var hostName = "mockserver.test"
    /// TLS: with ``TLSSettings/Mode-swift.enum/implicit`` every listener is TLS from the first byte
    /// (RFC 8314); with ``TLSSettings/Mode-swift.enum/explicit`` the listeners are plain and offer
    /// STARTTLS and STLS. `nil`: no TLS.
    package var tls: TLSSettings?
    /// Whether commands other than those RFC 3207 and RFC 2595 allow before TLS are refused until
    /// the connection is under TLS, on loopback too.
    package var tlsRequired = false
    /// Who may log in: anyone (the default) or the accounts given.
    package var users = MailUsers()
    /// The messages the mailbox starts with (`--mail-dir`).
    package var seed: MailSeed?
    /// The largest message taken (SMTP's SIZE, announced in EHLO): 10,240,000 bytes, Postfix's default.
    package var maximumMessageSize = MailServerConfiguration.defaultMaximumMessageSize
    /// Every connection's network conditions (latency, bandwidth).
    package var conditions: NetworkConditions?
    /// Called with each transcript entry of either listener as it is recorded.
    package var transcriptObserver: (@Sendable (Transcript.Entry) -> Void)?
    /// Response scripts tried before the mail server, each on the protocol its scheme names
    /// (`smtp`, `pop3`, `imap`): its patterns answer what they take, the server the rest.
    package var scripts: [ResponseScript] = []
    /// Where the servers log.
    package var logger = MockServerLogger.disabled

    /// Postfix's `message_size_limit` default.
    package static let defaultMaximumMessageSize = 10_240_000

    package init() {}
}
