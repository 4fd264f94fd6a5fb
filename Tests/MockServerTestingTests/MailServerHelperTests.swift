import Foundation
import MockServerTesting
import Testing
import TestSupport

/// `withMockMailServer`: a started mail server for the body, stopped after it, a failure's error
/// carrying the mail dialogue.
@Suite("withMockMailServer", .offPool)
struct MailServerHelperTests {
    @Test("the body gets a started server whose message it awaits; the server is stopped afterwards")
    func startsAndStops() async throws {
        let port = try await withMockMailServer { mail in
            let sent = try Tools.python("""
                import smtplib
                with smtplib.SMTP("127.0.0.1", \(mail.smtpPort), timeout=10) as smtp:
                    smtp.sendmail("app@example.com", ["ann@example.com"], "Subject: Hi\\r\\n\\r\\nHello\\r\\n")
                """)
            #expect(sent.status == 0, "\(sent)")
            let message = try await mail.waitForMessage(to: "ann@example.com", timeout: .seconds(10))
            #expect(message.subject == "Hi")
            #expect(mail.smtpTranscript.inputs.map(\.text).contains("data"))
            return mail.smtpPort
        }
        let refused = try Tools.pythonSocket(port: port, "print('connected')")
        #expect(refused.status != 0, "the server still listens after the body: \(refused)")
    }

    @Test("an error thrown in the body comes back with the SMTP dialogue")
    func errorCarriesTranscript() async throws {
        struct Failure: Error {}
        do {
            try await withMockMailServer { mail in
                _ = try Tools.python("""
                    import smtplib
                    with smtplib.SMTP("127.0.0.1", \(mail.smtpPort), timeout=10) as smtp:
                        smtp.noop()
                    """)
                throw Failure()
            }
            Issue.record("no error")
        } catch {
            #expect("\(error)".contains("noop"), "\(error)")
        }
    }
}
