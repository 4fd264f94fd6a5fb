/// Who may log in: anyone with any password (no account configured, GreenMail's behaviour), or only
/// the configured accounts with their passwords (`--user ADDRESS:PASSWORD`).
package struct MailUsers: Sendable {
    /// The accounts and their passwords; empty means open.
    package let accounts: [MailboxAddress: String]

    /// Open: every login is accepted, any password.
    package init() { accounts = [:] }

    /// Only these accounts, each with its password.
    package init(accounts: [MailboxAddress: String]) { self.accounts = accounts }

    /// Accounts from `--user`'s `ADDRESS:PASSWORD` spellings (the password is everything after
    /// the first colon, so it may hold colons); nil for a spelling without a colon or address.
    package init?(arguments: [String]) {
        var accounts: [MailboxAddress: String] = [:]
        for argument in arguments {
            guard let colon = argument.firstIndex(of: ":"), colon != argument.startIndex else { return nil }
            accounts[MailboxAddress(String(argument[..<colon]))] = String(argument[argument.index(after: colon)...])
        }
        self.accounts = accounts
    }

    /// Whether any login is accepted (no account configured).
    package var isOpen: Bool { accounts.isEmpty }

    /// Checks a login and password (XOAUTH2's token is the password).
    package func authenticate(user: String, password: String) -> MailLoginResult {
        authenticate(user: user) { $0 == password }
    }

    /// Checks a login whose proof is derived from the password (CRAM-MD5's or APOP's digest):
    /// `verify` gets the account's password and says whether the proof matches. Open, any proof
    /// is accepted and `verify` is not called.
    package func authenticate(user: String, verify: (String) -> Bool) -> MailLoginResult {
        let address = MailboxAddress(user)
        if isOpen { return .accepted(address) }
        guard let password = accounts[address] else { return .unknownUser }
        return verify(password) ? .accepted(address) : .wrongPassword
    }
}
