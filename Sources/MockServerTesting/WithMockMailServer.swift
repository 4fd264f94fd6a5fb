import MockServer
import Testing

/// Runs `body` with a started mail server (SMTP, POP3 and IMAP over one mailbox of its own), then stops it.
/// An error the body throws is rethrown with the three transcripts, so a failed test shows the mail dialogue.
///
/// ```swift
/// @Test func resetMail() async throws {
///     try await withMockMailServer { mail in
///         try await app.sendReset(to: "ann@example.com", smtpPort: mail.smtpPort)
///         let message = try await mail.waitForMessage(to: "ann@example.com")
///         #expect(message.subject == "Reset your password")
///     }
/// }
/// ```
///
/// - Parameters:
///   - configuration: ports, TLS, accounts, seed, limits.
///   - body: the test, given the running mail server.
@discardableResult
public func withMockMailServer<Result>(
    configuration: MockServer.Mail.Configuration = .init(),
    _ body: (MockServer.Mail) async throws -> Result
) async throws -> Result {
    try await withStartedServer(try MockServer.Mail(configuration), start: { try $0.start() }, stop: { $0.stop() },
                                transcript: { $0.smtpTranscript.entries + $0.pop3Transcript.entries + $0.imapTranscript.entries }, report: { _ in }, body)
}
