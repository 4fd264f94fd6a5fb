import Foundation
import MockServerMail
import Testing

/// AUTHORIZATION: USER/PASS, APOP (RFC 1939 §7), AUTH PLAIN (RFC 5034), open and configured
/// accounts, and the masked transcript.
@Suite("POP3 login")
struct POP3LoginTests {
    static let accounts = MailUsers(accounts: [MailboxAddress("mrose@example.org"): "tanstaaf"])

    @Test("with accounts: the right password logs in, a wrong one or an unknown user is refused with [AUTH]")
    func accountsChecked() {
        let store = popStore(1, address: "mrose@example.org", users: Self.accounts)
        var dialogue = POP3TestDialogue(store: store)
        #expect(dialogue.send("USER mrose@example.org\r\nPASS wrong\r\n") == "+OK\r\n-ERR [AUTH] Authentication failed.\r\n")
        // A refused PASS forgets the USER.
        #expect(dialogue.send("PASS tanstaaf\r\n") == "-ERR No username given.\r\n")
        #expect(dialogue.send("USER nobody@example.org\r\nPASS tanstaaf\r\n") == "+OK\r\n-ERR [AUTH] Authentication failed.\r\n")
        #expect(dialogue.send("USER MROSE@EXAMPLE.ORG\r\nPASS tanstaaf\r\n") == "+OK\r\n-ERR [AUTH] Authentication failed.\r\n",
                "the local part is compared as given")
        #expect(dialogue.send("USER mrose@EXAMPLE.org\r\nPASS tanstaaf\r\n") == "+OK\r\n+OK Logged in.\r\n")
        #expect(dialogue.send("STAT\r\n") == "+OK 1 78\r\n")
    }

    @Test("open: any user and password log in, and read the mailbox of the address given")
    func openStore() {
        var dialogue = POP3TestDialogue(store: popStore())
        #expect(dialogue.send("USER lee@example.org\r\nPASS whatever\r\nSTAT\r\n") == "+OK\r\n+OK Logged in.\r\n+OK 1 30\r\n")
    }

    @Test("USER without a name, PASS without USER, and a password with spaces")
    func userAndPass() {
        let store = MailStore(users: MailUsers(accounts: [MailboxAddress("dana@example.net"): "two words"]))
        var dialogue = POP3TestDialogue(store: store)
        #expect(dialogue.send("USER\r\n") == "-ERR No username given.\r\n")
        #expect(dialogue.send("PASS two words\r\n") == "-ERR No username given.\r\n")
        #expect(dialogue.send("USER dana@example.net\r\nPASS two words\r\n") == "+OK\r\n+OK Logged in.\r\n")
        #expect(dialogue.recorded == ["USER", "PASS MASKED", "USER dana@example.net", "PASS MASKED"])
    }

    @Test("APOP with RFC 1939's example: the digest of the greeting's timestamp and tanstaaf logs in")
    func apopExample() {
        let store = popStore(1, address: "mrose@example.org", users: Self.accounts)
        var dialogue = POP3TestDialogue(store: store)
        #expect(dialogue.send("APOP mrose@example.org c4c9334bac560ecc979e58001b3e22fb\r\n") == "+OK Logged in.\r\n")
        #expect(dialogue.recorded == ["APOP mrose@example.org MASKED"])
        #expect(dialogue.send("STAT\r\n") == "+OK 1 78\r\n")
    }

    @Test("APOP: the digest in upper case too; a wrong digest, another timestamp or a malformed digest is refused")
    func apopRefusals() {
        let store = MailStore(users: Self.accounts)
        var upper = POP3TestDialogue(store: store)
        #expect(upper.send("APOP mrose@example.org C4C9334BAC560ECC979E58001B3E22FB\r\n") == "+OK Logged in.\r\n")
        var other = POP3TestDialogue(store: store, timestamp: "<1897.697170952@dbc.mtview.ca.us>")
        #expect(other.send("APOP mrose@example.org c4c9334bac560ecc979e58001b3e22fb\r\n") == "-ERR [AUTH] Authentication failed.\r\n")
        var dialogue = POP3TestDialogue(store: store)
        #expect(dialogue.send("APOP mrose@example.org 00000000000000000000000000000000\r\n") == "-ERR [AUTH] Authentication failed.\r\n")
        #expect(dialogue.send("APOP mrose@example.org\r\n") == "-ERR Invalid parameters.\r\n")
        #expect(dialogue.send("APOP\r\n") == "-ERR Invalid parameters.\r\n")
        #expect(dialogue.send("APOP mrose@example.org c4c9 334b\r\n") == "-ERR Invalid parameters.\r\n")
        #expect(dialogue.send("APOP mrose@example.org c4c9334bac560ecc979e58001b3e22fz\r\n") == "-ERR Invalid characters in MD5 response.\r\n")
        #expect(dialogue.send("APOP mrose@example.org c4c9334b\r\n") == "-ERR Invalid characters in MD5 response.\r\n")
    }

    @Test("APOP with no accounts: any well-formed digest logs in")
    func apopOpen() {
        var dialogue = POP3TestDialogue(store: popStore())
        #expect(dialogue.send("APOP dana@example.net 0123456789abcdef0123456789abcdef\r\nSTAT\r\n") == "+OK Logged in.\r\n+OK 2 154\r\n")
    }

    /// `\0user\0password` in base64.
    static func plain(_ user: String, _ password: String, as authorization: String = "") -> String {
        Data("\(authorization)\0\(user)\0\(password)".utf8).base64EncodedString()
    }

    @Test("AUTH PLAIN with an initial response, and after an empty challenge; the secrets recorded masked")
    func authPlain() {
        let store = popStore(1, address: "mrose@example.org", users: Self.accounts)
        var initial = POP3TestDialogue(store: store)
        #expect(initial.send("AUTH PLAIN \(Self.plain("mrose@example.org", "tanstaaf"))\r\n") == "+OK Logged in.\r\n")
        #expect(initial.recorded == ["AUTH PLAIN MASKED"])
        var challenged = POP3TestDialogue(store: store)
        #expect(challenged.send("auth plain\r\n") == "+ \r\n")
        #expect(challenged.session.expectsCommand == false)
        #expect(challenged.send(Self.plain("mrose@example.org", "tanstaaf", as: "mrose@example.org") + "\r\n") == "+OK Logged in.\r\n")
        #expect(challenged.recorded == ["auth plain", "MASKED"])
        #expect(challenged.send("STAT\r\n") == "+OK 1 78\r\n")
    }

    @Test("AUTH refusals: wrong password, bad base64, malformed PLAIN, an unknown or unoffered mechanism, a cancel")
    func authRefusals() {
        let store = MailStore(users: Self.accounts)
        var dialogue = POP3TestDialogue(store: store)
        #expect(dialogue.send("AUTH PLAIN \(Self.plain("mrose@example.org", "nope"))\r\n") == "-ERR [AUTH] Authentication failed.\r\n")
        #expect(dialogue.send("AUTH PLAIN !!!!\r\n") == "-ERR [AUTH] Invalid SASL response: the response is not base64.\r\n")
        #expect(dialogue.send("AUTH PLAIN =\r\n").hasPrefix("-ERR [AUTH] Invalid SASL response: PLAIN needs"))
        #expect(dialogue.send("AUTH CRAM-SHA9\r\n") == "-ERR [AUTH] Unsupported authentication mechanism.\r\n")
        #expect(dialogue.send("AUTH PLAIN\r\n*\r\n") == "+ \r\n-ERR Authentication aborted by client.\r\n")
        #expect(dialogue.recorded.suffix(2) == ["AUTH PLAIN", "*"])
        #expect(dialogue.session.expectsCommand)
        #expect(dialogue.send("NOOP\r\n") == "-ERR Unknown command.\r\n")
        #expect(dialogue.closed == nil)
        var plainOnly = POP3TestDialogue(store: store, settings: POP3Settings(authenticationMechanisms: [.plain]))
        #expect(plainOnly.send("AUTH LOGIN\r\n") == "-ERR [AUTH] Unsupported authentication mechanism.\r\n")
    }

    @Test("AUTH LOGIN: user name and password after their challenges, each line recorded masked")
    func authLogin() {
        let store = popStore(1, address: "mrose@example.org", users: Self.accounts)
        var dialogue = POP3TestDialogue(store: store)
        #expect(dialogue.send("AUTH LOGIN\r\n") == "+ VXNlcm5hbWU6\r\n")
        #expect(dialogue.send(Data("mrose@example.org".utf8).base64EncodedString() + "\r\n") == "+ UGFzc3dvcmQ6\r\n")
        #expect(dialogue.send(Data("tanstaaf".utf8).base64EncodedString() + "\r\n") == "+OK Logged in.\r\n")
        #expect(dialogue.recorded == ["AUTH LOGIN", "MASKED", "MASKED"])
    }

    @Test("AUTH CRAM-MD5: the challenge is the greeting's timestamp, answered with the HMAC of the password")
    func authCRAM() {
        let store = popStore(1, address: "mrose@example.org", users: Self.accounts)
        var dialogue = POP3TestDialogue(store: store)
        let challenge = Data(POP3TestDialogue.timestamp.utf8).base64EncodedString()
        #expect(dialogue.send("AUTH CRAM-MD5\r\n") == "+ \(challenge)\r\n")
        let digest = MailDigest.hex(MailDigest.hmacMD5(key: Array("tanstaaf".utf8), message: Array(POP3TestDialogue.timestamp.utf8)))
        #expect(dialogue.send(Data("mrose@example.org \(digest)".utf8).base64EncodedString() + "\r\n") == "+OK Logged in.\r\n")
        var wrong = POP3TestDialogue(store: store)
        wrong.send("AUTH CRAM-MD5\r\n")
        #expect(wrong.send(Data("mrose@example.org \(String(repeating: "0", count: 32))".utf8).base64EncodedString() + "\r\n")
                == "-ERR [AUTH] Authentication failed.\r\n")
    }

    @Test("AUTH XOAUTH2: the token is the password; a refused one gets the error challenge, then -ERR [AUTH]")
    func authXOAUTH2() {
        let store = popStore(1, address: "mrose@example.org", users: Self.accounts)
        func token(_ bearer: String) -> String {
            Data("user=mrose@example.org\u{1}auth=Bearer \(bearer)\u{1}\u{1}".utf8).base64EncodedString()
        }
        var accepted = POP3TestDialogue(store: store)
        #expect(accepted.send("AUTH XOAUTH2 \(token("tanstaaf"))\r\n") == "+OK Logged in.\r\n")
        var refused = POP3TestDialogue(store: store)
        let error = Data(MailAuthExchange.xoauth2ErrorChallenge).base64EncodedString()
        #expect(refused.send("AUTH XOAUTH2 \(token("expired"))\r\n") == "+ \(error)\r\n")
        #expect(refused.send("\r\n") == "-ERR [AUTH] Authentication failed.\r\n")
    }

    @Test("AUTH alone lists the mechanisms offered; CAPA's SASL line lists the same")
    func authList() {
        var dialogue = POP3TestDialogue(store: popStore())
        #expect(dialogue.send("AUTH\r\n") == "+OK\r\nPLAIN\r\nLOGIN\r\nCRAM-MD5\r\nXOAUTH2\r\n.\r\n")
        var none = POP3TestDialogue(store: popStore(), settings: POP3Settings(authenticationMechanisms: []))
        #expect(none.send("AUTH\r\n") == "+OK\r\n.\r\n")
        #expect(none.send("AUTH PLAIN\r\n") == "-ERR [AUTH] Unsupported authentication mechanism.\r\n")
        #expect(!none.send("CAPA\r\n").contains("SASL"))
    }

    @Test("a SASL response may be longer than a command line (an XOAUTH2-sized token), up to its own limit")
    func longSASLResponse() {
        let store = MailStore()
        var dialogue = POP3TestDialogue(store: store)
        dialogue.send("AUTH PLAIN\r\n")
        let response = Self.plain("dana@example.net", String(repeating: "p", count: 1500))
        #expect(response.utf8.count > POP3Settings.defaultCommandLineLimit)
        #expect(dialogue.send(response + "\r\n") == "+OK Logged in.\r\n")
        var tooLong = POP3TestDialogue(store: store)
        tooLong.send("AUTH PLAIN\r\n")
        #expect(tooLong.send(String(repeating: "A", count: POP3Settings.defaultAuthenticationLineLimit + 10) + "\r\nNOOP\r\n")
                == "-ERR Input line too long.\r\n-ERR Unknown command.\r\n")
        #expect(tooLong.recorded == ["AUTH PLAIN", "MASKED", "NOOP"])
    }
}
