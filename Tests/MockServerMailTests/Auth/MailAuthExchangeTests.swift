import Foundation
@testable import MockServerMail
import Testing

/// One SASL exchange per mechanism, open and with accounts: accepted, refused, malformed, cancelled.
@Suite("SASL exchange")
struct MailAuthExchangeTests {
    static let challenge = "<1896.697170952@mock.example>"
    static let accounts = MailStore(users: MailUsers(accounts: [MailboxAddress("dana@example.net"): "s3cret"]))

    static func base64(_ text: String) -> [UInt8] { Array(Data(text.utf8).base64EncodedString().utf8) }

    /// Runs an exchange to its end, answering each challenge with the next of `answers` (raw lines).
    static func run(_ mechanism: String, initial: String? = nil, answers: [[UInt8]], store: MailStore) -> (steps: [MailAuthExchange.Step], user: String?) {
        guard var exchange = MailAuthExchange(mechanism: mechanism, initialResponse: initial, challenge: challenge) else { return ([], nil) }
        var steps = [exchange.start(login: store)]
        var answers = answers[...]
        while case .challenge = steps.last!, let next = answers.popFirst() {
            steps.append(exchange.respond(next, login: store))
        }
        return (steps, exchange.user)
    }

    @Test("an unknown mechanism gives nil; names are read in any case")
    func unknown() {
        #expect(MailAuthExchange(mechanism: "GSSAPI", initialResponse: nil, challenge: "") == nil)
        #expect(MailAuthExchange(mechanism: "cram-md5", initialResponse: nil, challenge: "")?.mechanism == .cramMD5)
    }

    @Test("PLAIN: initial response, empty challenge then response, wrong password, unknown user")
    func plain() {
        let good = Self.base64("\0dana@example.net\0s3cret")
        let accepted = MailAuthExchange.Step.accepted(MailboxAddress("dana@example.net"))
        #expect(Self.run("PLAIN", initial: String(decoding: good, as: UTF8.self), answers: [], store: Self.accounts).steps == [accepted])
        #expect(Self.run("PLAIN", answers: [good], store: Self.accounts).steps == [.challenge([]), accepted])
        #expect(Self.run("PLAIN", answers: [Self.base64("admin\0dana@example.net\0wrong")], store: Self.accounts).steps.last
                == .refused(user: "dana@example.net", .wrongPassword))
        #expect(Self.run("PLAIN", answers: [Self.base64("\0eve@example.net\0s3cret")], store: Self.accounts).steps.last
                == .refused(user: "eve@example.net", .unknownUser))
        #expect(Self.run("PLAIN", answers: [Self.base64("\0eve@example.net\0anything")], store: MailStore()).steps.last
                == .accepted(MailboxAddress("eve@example.net")))
    }

    @Test("PLAIN malformed: not base64, two fields, empty user, bad UTF-8, an empty initial response")
    func plainMalformed() {
        for answer in [Array("not base64!".utf8), Self.base64("dana\0s3cret"), Self.base64("\0\0s3cret"),
                       Array(Data([0, 0xFF, 0xFE, 0, 0x61]).base64EncodedString().utf8)] {
            let steps = Self.run("PLAIN", answers: [answer], store: MailStore()).steps
            guard case .malformed = steps.last else { Issue.record("\(steps)"); continue }
        }
        guard case .malformed = Self.run("PLAIN", initial: "=", answers: [], store: MailStore()).steps.last else { Issue.record("="); return }
    }

    @Test("LOGIN: Username: then Password:, initial response as the user name, wrong password")
    func login() {
        let run = Self.run("LOGIN", answers: [Self.base64("dana@example.net"), Self.base64("s3cret")], store: Self.accounts)
        #expect(run.steps == [.challenge(Array("Username:".utf8)), .challenge(Array("Password:".utf8)), .accepted(MailboxAddress("dana@example.net"))])
        #expect(run.user == "dana@example.net")
        let initial = Self.run("LOGIN", initial: Data("dana@example.net".utf8).base64EncodedString(), answers: [Self.base64("nope")], store: Self.accounts)
        #expect(initial.steps == [.challenge(Array("Password:".utf8)), .refused(user: "dana@example.net", .wrongPassword)])
        // An empty password is a password: open, it is accepted.
        #expect(Self.run("LOGIN", answers: [Self.base64("bob"), []], store: MailStore()).steps.last == .accepted(MailboxAddress("bob")))
    }

    @Test("CRAM-MD5: the challenge, the HMAC checked with accounts, any digest when open")
    func cram() {
        let digest = MailDigest.hex(MailDigest.hmacMD5(key: Array("s3cret".utf8), message: Array(Self.challenge.utf8)))
        let run = Self.run("CRAM-MD5", answers: [Self.base64("dana@example.net \(digest.uppercased())")], store: Self.accounts)
        #expect(run.steps == [.challenge(Array(Self.challenge.utf8)), .accepted(MailboxAddress("dana@example.net"))])
        let wrong = String(repeating: "0", count: 32)
        #expect(Self.run("CRAM-MD5", answers: [Self.base64("dana@example.net \(wrong)")], store: Self.accounts).steps.last
                == .refused(user: "dana@example.net", .wrongPassword))
        #expect(Self.run("CRAM-MD5", answers: [Self.base64("lee \(wrong)")], store: MailStore()).steps.last == .accepted(MailboxAddress("lee")))
        for bad in ["dana@example.net", "dana@example.net 1234", " \(wrong)", "dana \(String(repeating: "g", count: 32))"] {
            guard case .malformed = Self.run("CRAM-MD5", answers: [Self.base64(bad)], store: MailStore()).steps.last else { Issue.record(Comment(rawValue: bad)); continue }
        }
        guard case .malformed = Self.run("CRAM-MD5", initial: "abcd", answers: [], store: MailStore()).steps.last else { Issue.record("initial"); return }
    }

    @Test("XOAUTH2: the token is the password; refused, the error challenge comes first, then the refusal")
    func xoauth2() {
        let good = Data("user=dana@example.net\u{1}auth=Bearer s3cret\u{1}\u{1}".utf8).base64EncodedString()
        #expect(Self.run("XOAUTH2", initial: good, answers: [], store: Self.accounts).steps == [.accepted(MailboxAddress("dana@example.net"))])
        let bad = Data("user=dana@example.net\u{1}auth=bearer ya29.wrong\u{1}\u{1}".utf8).base64EncodedString()
        let refused = Self.run("XOAUTH2", initial: bad, answers: [[]], store: Self.accounts)
        #expect(refused.steps == [.challenge(MailAuthExchange.xoauth2ErrorChallenge), .refused(user: "dana@example.net", .wrongPassword)])
        for answer in ["AQ==", "%%"] {
            #expect(Self.run("XOAUTH2", initial: bad, answers: [Array(answer.utf8)], store: Self.accounts).steps.last == .refused(user: "dana@example.net", .wrongPassword))
        }
        let json = try? JSONSerialization.jsonObject(with: Data(MailAuthExchange.xoauth2ErrorChallenge)) as? [String: String]
        #expect(json?["status"] == "401")
        #expect(Self.run("XOAUTH2", answers: [Array(bad.utf8)], store: MailStore()).steps.last == .accepted(MailboxAddress("dana@example.net")))
        for text in ["user=dana\u{1}\u{1}", "auth=Bearer x\u{1}\u{1}", "user=dana\u{1}auth=Basic x\u{1}\u{1}"] {
            guard case .malformed = Self.run("XOAUTH2", answers: [Self.base64(text)], store: MailStore()).steps.last else { Issue.record(Comment(rawValue: text)); continue }
        }
    }

    @Test("the user an initial response claims, read before the exchange starts")
    func claimedUser() {
        func claimed(_ mechanism: String, _ initial: String?) -> String? {
            MailAuthExchange(mechanism: mechanism, initialResponse: initial, challenge: Self.challenge)?.claimedUser
        }
        #expect(claimed("PLAIN", String(decoding: Self.base64("\0dana@example.net\0x"), as: UTF8.self)) == "dana@example.net")
        #expect(claimed("LOGIN", String(decoding: Self.base64("lee"), as: UTF8.self)) == "lee")
        #expect(claimed("XOAUTH2", String(decoding: Self.base64("user=kim\u{1}auth=Bearer t\u{1}\u{1}"), as: UTF8.self)) == "kim")
        #expect(claimed("PLAIN", nil) == nil)
        #expect(claimed("PLAIN", "=") == nil)
        #expect(claimed("PLAIN", "%%%") == nil)
    }

    @Test("`*` cancels at any challenge; a response after the end is malformed", arguments: ["PLAIN", "LOGIN", "CRAM-MD5", "XOAUTH2"])
    func cancel(mechanism: String) {
        var exchange = MailAuthExchange(mechanism: mechanism, initialResponse: nil, challenge: Self.challenge)!
        guard case .challenge = exchange.start(login: MailStore()) else { Issue.record("no challenge"); return }
        #expect(exchange.respond(Array("*".utf8), login: MailStore()) == .cancelled)
        #expect(exchange.isFinished)
        guard case .malformed = exchange.respond(Self.base64("x"), login: MailStore()) else { Issue.record("after the end"); return }
    }
}
