import Foundation
import MockServerMail
import MockServerMailScript
import MockServerScript
import Testing
import TestSupport

/// A response script stands in for part of a mail dialogue: its patterns are tried first on each
/// command line (and its `«initial»` on the greeting), the mail server answers the rest.
@Suite("Mail: a response script first, the server the rest", .offPool)
struct MailScriptFirstTests {
    static let smtpScript = """
        {
          "scheme": "smtp",
          "responses": {
            "greeting": { "pattern": "«initial»", "commands": ["220 scripted.example ESMTP ready\\r\\n"] },
            "blocked":  { "pattern": "(?i)^RCPT TO:<blocked@", "commands": ["550 5.7.1 Blocked by the script\\r\\n"] },
            "vrfy":     { "pattern": "(?i)^VRFY (.*)$", "commands": ["250 $1 is known to the script\\r\\n"] }
          }
        }
        """

    /// The mail schemes, and HTTP's (a script a mail server must refuse), as the standard vocabulary has them.
    static let vocabulary = ScriptVocabulary([LineScriptProtocol(name: "SMTP", tlsForms: ["smtp": "smtps"]),
                                              LineScriptProtocol(name: "POP3", tlsForms: ["pop3": "pop3s"]),
                                              LineScriptProtocol(name: "HTTP", tlsForms: ["http": "https"])])

    @Test("smtplib: the script's greeting, its refusal of one recipient and its VRFY; the server takes the message for the rest")
    func smtp() throws {
        let script = try ResponseScript(json: Self.smtpScript, file: "smtp.json", vocabulary: Self.vocabulary)
        let server = try MailTestServer { $0.scripts = [script] }
        let result = try Tools.python("""
            import smtplib
            with smtplib.SMTP("127.0.0.1", \(server.smtpPort), timeout=10) as smtp:
                print(smtp.ehlo()[0])
                print(smtp.verify("ann@example.com"))
                print(smtp.sendmail("ann@example.com", ["bob@example.com", "blocked@example.com"], "Subject: x\\r\\n\\r\\nx\\r\\n"))
            """)
        #expect(result.stdout == """
            250
            (250, b'ann@example.com is known to the script')
            {'blocked@example.com': (550, b'5.7.1 Blocked by the script')}

            """, "\(result)")
        let greeting = try Tools.pythonSocket(port: server.smtpPort, "print(line())")
        #expect(greeting.stdout == "220 scripted.example ESMTP ready\n", "\(greeting)")
        #expect(server.store.transactions.map { $0.envelope.recipients } == [["bob@example.com"]])
        // The transcript has every command, the script's and the server's (smtplib writes verbs in lower case).
        let inputs = server.mail.smtp.transcript.inputs.map { $0.text }
        #expect(inputs.contains("rcpt TO:<blocked@example.com>"), "\(inputs)")
        #expect(inputs.contains("mail FROM:<ann@example.com> size=17"), "\(inputs)")
    }

    @Test("a script whose scheme is not a mail protocol's, or a second one for a protocol, is refused naming it")
    func refused() throws {
        let http = try ResponseScript(json: #"{"scheme": "http", "responses": {}}"#, file: "http.json", vocabulary: Self.vocabulary)
        do {
            var configuration = MailServerConfiguration()
            configuration.scripts = [http]
            _ = try MailServer(configuration)
            Issue.record("an HTTP script was taken")
        } catch {
            #expect(error.description.hasPrefix("http.json: scheme: a mail server's script says \"scheme\": \"smtp\", \"pop3\" or \"imap\""), "\(error)")
        }
        let one = try ResponseScript(json: Self.smtpScript, file: "a.json", vocabulary: Self.vocabulary)
        let two = try ResponseScript(json: Self.smtpScript, file: "b.json", vocabulary: Self.vocabulary)
        do {
            var configuration = MailServerConfiguration()
            configuration.scripts = [one, two]
            _ = try MailServer(configuration)
            Issue.record("two SMTP scripts were taken")
        } catch {
            #expect(error.description.contains("b.json"), "\(error)")
            #expect(error.description.contains("a second script for smtp"), "\(error)")
        }
    }
}
