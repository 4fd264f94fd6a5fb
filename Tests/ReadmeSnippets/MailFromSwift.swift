import Foundation
import MockServer
import Testing

@Test func passwordReset() async throws {
    var configuration = MockServer.Mail.Configuration()
    configuration.accounts = ["app@example.com": "app-password"]   // only this login; empty: anyone
    let mail = try MockServer.Mail(configuration)
    try mail.start()
    defer { mail.stop() }
    // The app under test would send to 127.0.0.1:\(mail.smtpPort) here, logging in as app@example.com.
    #expect(mail.messages.isEmpty)
    do {
        _ = try await mail.waitForMessage(to: "ann@example.com", subject: "Reset", timeout: .milliseconds(100))
        Issue.record("nothing was sent, yet a message arrived")
    } catch let timeout as MockServer.Mail.Timeout {
        #expect(timeout.description.contains("arrived:"))   // what arrived instead, one a line
    }
}
