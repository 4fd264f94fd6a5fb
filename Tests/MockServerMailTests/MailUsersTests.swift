import MockServerMail
import Testing

/// Who logs in: anyone when no account is configured, else only the accounts, each refusal named.
@Suite("Mail users")
struct MailUsersTests {
    @Test("open: any login and password is accepted and its mailbox made")
    func open() {
        let store = MailStore()
        #expect(store.users.isOpen)
        #expect(store.login(user: "dana@Example.NET", password: "anything") == .accepted(MailboxAddress("dana@example.net")))
        #expect(store.folders(of: "dana@example.net") == [MailStore.inbox])
        #expect(store.login(user: "bob", password: "") == .accepted(MailboxAddress("bob")))
        // A challenge mechanism's digest is not checked.
        #expect(store.login(user: "lee@example.org") { _ in false }.isAccepted)
    }

    @Test("configured: only the accounts, with their passwords; the refusal says why")
    func configured() throws {
        let users = try #require(MailUsers(arguments: ["dana@example.net:s3cret", "lee@example.org:a:b"]))
        let store = MailStore(users: users)
        #expect(!users.isOpen)
        #expect(store.login(user: "dana@EXAMPLE.net", password: "s3cret") == .accepted(MailboxAddress("dana@example.net")))
        #expect(store.login(user: "dana@example.net", password: "S3CRET") == .wrongPassword)
        #expect(store.login(user: "lee@example.org", password: "a:b").isAccepted)
        #expect(store.login(user: "eve@example.net", password: "s3cret") == .unknownUser)
        #expect(store.folders(of: "eve@example.net").isEmpty)
        // CRAM-MD5 or APOP: the check gets the account's password.
        #expect(store.login(user: "dana@example.net") { $0 == "s3cret" }.isAccepted)
        #expect(store.login(user: "dana@example.net") { _ in false } == .wrongPassword)
    }

    @Test("--user spellings without a colon or an address are refused")
    func badArguments() {
        #expect(MailUsers(arguments: ["dana@example.net"]) == nil)
        #expect(MailUsers(arguments: [":password"]) == nil)
        #expect(MailUsers(arguments: ["a@b.example:"])?.accounts[MailboxAddress("a@b.example")] == "")
    }
}
