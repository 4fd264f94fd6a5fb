import Foundation
import MockServer
import Testing

// The code under test sends a welcome mail over SMTP; curl stands in for it here.
func sendWelcome(to address: String, smtpPort: UInt16) throws {
    let message = "From: app@example.com\r\nTo: \(address)\r\nSubject: Welcome, Ann!\r\n\r\nYour account is ready.\r\n"
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString + ".eml")
    try Data(message.utf8).write(to: file)
    let curl = Process()
    curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    curl.arguments = ["curl", "-s", "smtp://127.0.0.1:\(smtpPort)", "--mail-from", "app@example.com",
                      "--mail-rcpt", address, "--upload-file", file.path]
    try curl.run()
}

@Test func theWelcomeMail() async throws {
    let mail = try MockServer.Mail()                     // SMTP, POP3 and IMAP on loopback ports
    try mail.start()
    defer { mail.stop() }

    try sendWelcome(to: "ann@example.com", smtpPort: mail.smtpPort)

    // Suspends until the message arrives (no polling), and returns it parsed.
    let message = try await mail.waitForMessage(to: "ann@example.com", timeout: .seconds(10))
    #expect(message.subject == "Welcome, Ann!")
    #expect(message.text?.contains("Your account is ready.") == true)
    #expect(message.sender == "app@example.com")

    // A server that is busy for one recipient: the client must retry later.
    mail.fail(at: .recipient, with: .reply(code: 451, text: "4.3.0 Try again later"), recipient: "bob@example.com")
}
