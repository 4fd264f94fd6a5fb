extension POP3Session {
    /// Dovecot's answer to a login attempted in plain where TLS is required.
    static let cleartextRefusal = "[AUTH] Cleartext authentication disallowed on non-secure (SSL/TLS) connections."
    /// Dovecot's answer to a refused login.
    static let loginFailure = "[AUTH] Authentication failed."

    /// Whether logins are refused now: TLS is required and not active yet.
    var loginNeedsTLS: Bool { settings.tls == .required && !isSecure }

    /// Answers a command in AUTHORIZATION (`user`: the name USER gave, if it did).
    mutating func answerAuthorization(_ command: POP3Command, user: String?) -> [MailAction] {
        if loginNeedsTLS, ["USER", "PASS", "APOP", "AUTH"].contains(command.keyword) {
            return [Self.error(Self.cleartextRefusal)]
        }
        switch command.keyword {
        case "CAPA": return [capabilities()]
        case "QUIT":
            state = .closed
            return [Self.ok("Logging out."), .close("QUIT")]
        case "STLS": return startTLS()
        case "USER": return userCommand(command.argument)
        case "PASS": return passCommand(command.argument, user: user)
        case "APOP": return apopCommand(command)
        case "AUTH": return authCommand(command)
        default:
            // Dovecot's login process knows none of TRANSACTION's commands.
            return [Self.error("Unknown command.")]
        }
    }

    /// CAPA's answer (RFC 2449 §5): what Dovecot lists, then in AUTHORIZATION STLS while it may
    /// be used, and USER and SASL while a login may be made (not in plain where TLS is
    /// required); in TRANSACTION, as Dovecot, none of the three. IMPLEMENTATION last.
    func capabilities() -> MailAction {
        var lines = ["+OK", "CAPA", "TOP", "UIDL", "RESP-CODES", "PIPELINING", "AUTH-RESP-CODE"]
        let inAuthorization: Bool
        if case .transaction = state { inAuthorization = false } else { inAuthorization = true }
        if inAuthorization, !isSecure, settings.tls == .offered || settings.tls == .required { lines.append("STLS") }
        if inAuthorization, !loginNeedsTLS {
            lines.append("USER")
            let names = settings.authenticationMechanisms.map(\.rawValue)
            if !names.isEmpty { lines.append((["SASL"] + names).joined(separator: " ")) }
        }
        lines += ["IMPLEMENTATION MockServer", "."]
        return .send(Array(lines.map { $0 + "\r\n" }.joined().utf8))
    }

    /// STLS (RFC 2595 §4): `+OK` and the handshake, or why not.
    private mutating func startTLS() -> [MailAction] {
        if isSecure { return [Self.error("TLS is already active.")] }
        guard settings.tls == .offered || settings.tls == .required else { return [Self.error("TLS support isn't enabled.")] }
        state = .startingTLS
        return [Self.ok("Begin TLS negotiation now."), .startTLS]
    }

    /// USER: remembers the name for PASS (after the ``MailFaultPoint/pop3User`` fault).
    private mutating func userCommand(_ name: String) -> [MailAction] {
        guard !name.isEmpty else { return [Self.error("No username given.")] }
        switch faults?.decide(.pop3User, subject: MailFaultSubject(user: name)) {
        case .reply(let code, let text)?:
            state = .authorization(user: nil)
            return [Self.error(code: code, text: text, at: .pop3User)]
        case .drop?, .dropMidway?:
            state = .closed
            return [.close("fault: drop at pop3.user")]
        case nil:
            state = .authorization(user: name)
            return [Self.ok()]
        }
    }

    /// PASS: the password for USER's name, everything after `PASS ` (spaces included).
    private mutating func passCommand(_ password: String, user: String?) -> [MailAction] {
        guard let user else { return [Self.error("No username given.")] }
        return logIn(user: user) { $0.login(user: user, password: password) }
    }

    /// APOP name digest (RFC 1939 §7): the digest is MD5 of the greeting's timestamp and the
    /// password, in hex; with no accounts configured any well-formed digest logs in.
    private mutating func apopCommand(_ command: POP3Command) -> [MailAction] {
        let (name, digest) = command.argumentWords
        guard !name.isEmpty, !digest.isEmpty, !digest.contains(" ") else { return [Self.error("Invalid parameters.")] }
        guard digest.utf8.count == 32, digest.utf8.allSatisfy(\.isHexDigit) else {
            return [Self.error("Invalid characters in MD5 response.")]
        }
        let user = String(name), expected = digest.lowercased(), timestamp = timestamp
        return logIn(user: user) {
            $0.login(user: user) { password in
                MailDigest.hex(MailDigest.md5(Array((timestamp + password).utf8))) == expected
            }
        }
    }

    /// Logs in as `user` by `check`, which asks the store, after the
    /// ``MailFaultPoint/pop3Pass`` fault.
    mutating func logIn(user: String, check: (MailStore) -> MailLoginResult) -> [MailAction] {
        state = .authorization(user: nil)
        return passFault(user: user) ?? loggedIn(check(store))
    }

    /// What the ``MailFaultPoint/pop3Pass`` fault answers for a login as `user` (an `-ERR`, or
    /// a close), or nil to go on with the login.
    mutating func passFault(user: String) -> [MailAction]? {
        switch faults?.decide(.pop3Pass, subject: MailFaultSubject(user: user)) {
        case .reply(let code, let text)?:
            return [Self.error(code: code, text: text, at: .pop3Pass)]
        case .drop?, .dropMidway?:
            state = .closed
            return [.close("fault: drop at pop3.pass")]
        case nil:
            return nil
        }
    }

    /// After a login checked: TRANSACTION on a snapshot of the user's INBOX, or AUTHORIZATION
    /// again with USER forgotten.
    mutating func loggedIn(_ result: MailLoginResult) -> [MailAction] {
        guard case .accepted(let address) = result else {
            state = .authorization(user: nil)
            return [Self.error(Self.loginFailure)]
        }
        state = .transaction(POP3Maildrop(of: address, in: store))
        return [Self.ok("Logged in.")]
    }
}

private extension UInt8 {
    /// Whether this is an ASCII hex digit, either case.
    var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
