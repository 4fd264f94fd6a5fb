@testable import MockServerMail
import Testing

/// MAIL FROM and RCPT TO arguments: the path and its parameters.
@Suite("SMTP path argument")
struct SMTPPathArgumentTests {
    static func read(_ text: String, _ keyword: String = "FROM:") -> Result<SMTPPathArgument, SMTPPathArgument.Failure> {
        Result { () throws(SMTPPathArgument.Failure) in try SMTPPathArgument(text[...], keyword: keyword) }
    }

    @Test("addresses: brackets, the null path, a source route, a quoted local part with > and spaces, no brackets")
    func addresses() throws {
        #expect(try Self.read("FROM:<dana@example.net>").get().address == "dana@example.net")
        #expect(try Self.read("from: <>").get().address == "")
        #expect(try Self.read("FROM:<@relay.test,@other.test:dana@example.net>").get().address == "dana@example.net")
        #expect(try Self.read(#"FROM:<"odd > one"@example.net> SIZE=1"#).get().address == #""odd > one"@example.net"#)
        #expect(try Self.read("TO:lee@example.org NOTIFY=NEVER", "TO:").get() ==
                SMTPPathArgument(address: "lee@example.org", parameters: [("NOTIFY", "NEVER")]))
    }

    @Test("parameters: keywords in capitals, values as given, a keyword without a value")
    func parameters() throws {
        let path = try Self.read("FROM:<a@b.test>  size=12 SMTPUTF8 envid=Ab=c").get()
        #expect(path.parameters.map(\.keyword) == ["SIZE", "SMTPUTF8", "ENVID"])
        #expect(path.parameters.map(\.value) == ["12", nil, "Ab=c"])
    }

    @Test("failures: syntax for a missing keyword or bracket, address for a bad path")
    func failures() {
        for text in ["<a@b.test>", "FROM<a@b.test>", "FROM:<a@b.test", "FROM:", "TO:<a@b.test>"] {
            #expect(throws: SMTPPathArgument.Failure.syntax, "\(text)") { try SMTPPathArgument(text[...], keyword: "FROM:") }
        }
        for text in ["FROM:<a b@c.test>", "FROM:<@c.test>", "FROM:<a@>", "FROM:<a\u{1}@c.test>", "FROM:<@relay.test>"] {
            #expect(throws: SMTPPathArgument.Failure.address, "\(text)") { try SMTPPathArgument(text[...], keyword: "FROM:") }
        }
    }
}

extension SMTPPathArgument {
    init(address: String, parameters: [(keyword: String, value: String?)]) {
        self = try! SMTPPathArgument("FROM:<>"[...], keyword: "FROM:")
        self.address = address
        self.parameters = parameters
    }
}
