import Foundation
import MockServerCore
import MockServerEngine
import MockServerMail

extension MockServer {
    /// A fake mail server for tests: SMTP takes messages into one mailbox, which POP3 and IMAP read,
    /// with waits that return each message parsed (or a folder once it is as a test expects), and
    /// failures on demand at any verb.
    ///
    /// ```swift
    /// let mail = try MockServer.Mail()
    /// try mail.start()
    /// defer { mail.stop() }
    /// // the code under test sends to 127.0.0.1:\(mail.smtpPort)
    /// let message = try await mail.waitForMessage(to: "ann@example.com", timeout: .seconds(5))
    /// #expect(message.subject == "Reset your password")
    /// ```
    ///
    /// One mailbox per server: parallel tests that each start one never see each other's mail.
    public final class Mail: Sendable {
        let server: MailServer

        /// A stopped mail server configured as `configuration` says.
        ///
        /// - Throws: ``MockServer/Mail/SeedError`` when `configuration.seed` cannot be read;
        ///   ``ResponseFileError`` for a script whose scheme is not `smtp`, `pop3` or `imap`, or a second one for a protocol.
        public init(_ configuration: Configuration = Configuration()) throws {
            server = try MailServer(try configuration.serverConfiguration(),
                                    faults: MailFaultPlan(seed: configuration.faultSeed ?? UInt64.random(in: .min ... .max)))
        }

        /// Binds the listeners and starts serving. Returns once every port is bound.
        public func start() throws {
            try server.start()
        }

        /// Stops the listeners and closes their connections.
        public func stop() {
            server.stop()
        }

        /// SMTP's port (0 before ``start()``).
        public var smtpPort: UInt16 { server.smtp.port }

        /// POP3's port (0 before ``start()``).
        public var pop3Port: UInt16 { server.pop3.port }

        /// IMAP's port (0 before ``start()``).
        public var imapPort: UInt16 { server.imap.port }

        /// IMAP's transcript: each connection, command (tag and name, literals by size, secrets
        /// masked) and response.
        public var imapTranscript: Transcript { server.imap.transcript }

        /// SMTP's transcript: each connection, command (secrets masked) and reply.
        public var smtpTranscript: Transcript { server.smtp.transcript }

        /// POP3's transcript: each connection, command (secrets masked) and reply.
        public var pop3Transcript: Transcript { server.pop3.transcript }

        /// Every message received (or seeded), oldest first: one per SMTP transaction, whatever
        /// its number of recipients.
        public var messages: [Message] { server.store.transactions.map(Message.init) }

        /// The messages whose envelope names `address` among its recipients (Bcc included); the
        /// address's domain matches in any case, its local part exactly (RFC 5321 §2.4).
        public func messages(to address: String) -> [Message] {
            let match = MailMatch.recipient(address)
            return server.store.transactions.filter(match.predicate).map(Message.init)
        }

        /// Removes every message (the seed's too) and every login's state.
        public func purge() {
            server.store.purge()
        }

        /// Waits until a message matching every condition given has arrived (or is there already),
        /// and returns it parsed. No polling: a delivery resumes the wait.
        ///
        /// - Parameters:
        ///   - recipient: an envelope recipient (`RCPT TO`), its domain in any case.
        ///   - sender: the envelope sender (`MAIL FROM`) or the message's `From`.
        ///   - subject: text the decoded subject contains.
        ///   - body: text the decoded text or HTML body contains.
        ///   - timeout: how long to wait.
        /// - Throws: ``MockServer/Mail/Timeout`` listing what did arrive, or `CancellationError`.
        public func waitForMessage(to recipient: String? = nil, from sender: String? = nil, subject: String? = nil, containing body: String? = nil,
                                   timeout: Duration = .seconds(10)) async throws -> Message {
            var matches: [MailMatch] = []
            if let recipient { matches.append(.recipient(recipient)) }
            if let sender { matches.append(.sender(sender)) }
            if let subject { matches.append(.subject(contains: subject)) }
            if let body { matches.append(.body(contains: body)) }
            do {
                return Message(try await server.store.wait(for: matches.isEmpty ? .any : .all(matches), timeout: timeout))
            } catch let timedOut as MailWaitTimeout {
                throw Timeout(description: timedOut.description)
            }
        }

        /// Makes the server fail at `point`: `failure` instead of its own answer, for every call or
        /// with `probability`, only for the sender, recipient or user given.
        ///
        /// ```swift
        /// mail.fail(at: .recipient, with: .reply(code: 452, text: "4.2.2 Mailbox full"), recipient: "bob@example.com")
        /// ```
        public func fail(at point: Point, with failure: Failure, probability: Double = 1,
                         sender: String? = nil, recipient: String? = nil, user: String? = nil) {
            server.faults.add(MailFaultRule(at: point.faultPoint, failure.decision, probability: probability,
                                            sender: sender, recipient: recipient, user: user))
        }

        /// Removes every failure ``fail(at:with:probability:sender:recipient:user:)`` set.
        public func removeFailures() {
            server.faults.removeAll()
        }
    }
}
