import Foundation

/// The not-authenticated state's commands (STARTTLS, LOGIN, AUTHENTICATE) and those of any state
/// that change the session (ID, ENABLE).
extension IMAPSession {
    /// Dovecot's answer to a login attempted in plain where TLS is required.
    static let cleartextRefusal = "[PRIVACYREQUIRED] Plaintext authentication disallowed on non-secure (SSL/TLS) connections."
    /// Dovecot's answer to a refused login.
    static let loginFailure = "[AUTHENTICATIONFAILED] Authentication failed."

    /// Whether logins are refused now: TLS is required and not active yet.
    var loginNeedsTLS: Bool { settings.tls == .required && !isSecure }

    /// STARTTLS (RFC 9051 §6.2.1): OK and the handshake, or why not.
    mutating func startTLS(_ command: IMAPCommand, _ arguments: inout IMAPArguments) throws(IMAPCommandError) -> [MailAction] {
        try arguments.end()
        guard settings.offers("STARTTLS") else { throw .bad("Unknown command STARTTLS.") }
        if isSecure { throw .bad("TLS is already active.") }
        guard settings.tls == .offered || settings.tls == .required else { throw .bad("TLS support isn't enabled.") }
        state = .startingTLS
        return [.send(Array("\(command.tag) OK Begin TLS negotiation now.\r\n".utf8)), .startTLS]
    }

    /// LOGIN user password.
    mutating func login(_ command: IMAPCommand, _ arguments: inout IMAPArguments) throws(IMAPCommandError) -> [MailAction] {
        let user = try arguments.text("user name")
        let password = try arguments.text("password")
        try arguments.end()
        if loginNeedsTLS { throw .no(Self.cleartextRefusal) }
        if let fault = loginFault(command.tag, user: user) { return fault }
        return loggedIn(command.tag, store.login(user: user, password: password))
    }

    /// AUTHENTICATE mechanism [initial-response] (RFC 9051 §6.2.2, SASL-IR RFC 4959).
    mutating func authenticate(_ command: IMAPCommand, _ arguments: inout IMAPArguments) throws(IMAPCommandError) -> [MailAction] {
        let name = try arguments.keyword("mechanism")
        let initial = arguments.isAtEnd ? nil : try arguments.text("initial response")
        try arguments.end()
        if loginNeedsTLS { throw .no(Self.cleartextRefusal) }
        guard let mechanism = MailAuthMechanism(name: name), settings.authenticationMechanisms.contains(mechanism),
              settings.offers("AUTH=\(mechanism.rawValue)"),
              var exchange = MailAuthExchange(mechanism: name, initialResponse: initial, challenge: "<\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max))@\(settings.hostName)>") else {
            throw .no("Unsupported authentication mechanism.")
        }
        let step = exchange.start(login: store)
        return answer(step, of: exchange, tag: command.tag)
    }

    /// One line of an AUTHENTICATE exchange: the client's base64 response, or `*` to cancel.
    mutating func answerSASL(_ line: ArraySlice<UInt8>) -> [MailAction] {
        guard case .authenticating(let tag, var exchange) = state else { return [] }
        let recorded = line.elementsEqual("*".utf8) ? Array(line) : Array("***".utf8)
        let step = exchange.respond(line, login: store)
        return [.record(recorded)] + answer(step, of: exchange, tag: tag)
    }

    /// The reply to an exchange's step, and the state after it.
    private mutating func answer(_ step: MailAuthExchange.Step, of exchange: MailAuthExchange, tag: String) -> [MailAction] {
        state = .notAuthenticated
        switch step {
        case .challenge(let bytes):
            state = .authenticating(tag: tag, exchange)
            return [.send(Array("+ \(Data(bytes).base64EncodedString())\r\n".utf8))]
        case .accepted(let address):
            return loginFault(tag, user: exchange.user ?? address.text) ?? loggedIn(tag, .accepted(address))
        case .refused(let user, let result):
            return loginFault(tag, user: user) ?? loggedIn(tag, result)
        case .malformed(let reason):
            return [.send(Array("\(tag) BAD Invalid SASL response: \(reason).\r\n".utf8))]
        case .cancelled:
            return [.send(Array("\(tag) BAD Authentication aborted by client.\r\n".utf8))]
        }
    }

    /// The answer to a checked login: OK with the capabilities after login, or NO.
    private mutating func loggedIn(_ tag: String, _ result: MailLoginResult) -> [MailAction] {
        guard case .accepted(let address) = result else {
            return [.send(Array("\(tag) NO \(Self.loginFailure)\r\n".utf8))]
        }
        state = .authenticated(address)
        return [.send(Array("\(tag) OK [CAPABILITY \(capabilities.joined(separator: " "))] Logged in\r\n".utf8))]
    }

    /// ID (RFC 2971): the server's name and version; the client's list is read and not kept.
    mutating func id(_ command: IMAPCommand, _ arguments: inout IMAPArguments) throws(IMAPCommandError) -> [MailAction] {
        guard settings.offers("ID") else { throw .bad("Unknown command ID.") }
        switch try arguments.next("ID parameters") {
        case .nil: break
        case .list(let items) where items.count % 2 == 0 && items.count <= 60: break
        default: throw .bad("Invalid ID parameters: expected NIL or a list of field and value pairs.")
        }
        try arguments.end()
        return ok(command, untagged: "* ID (\"name\" \"MockServer\" \"vendor\" \"MockServer\" \"support-url\" \"https://github.com/\")\r\n", text: "ID completed.")
    }

    /// ENABLE (RFC 5161): turns on the extensions named that the server has; `* ENABLED` lists them.
    mutating func enable(_ command: IMAPCommand, _ arguments: inout IMAPArguments) throws(IMAPCommandError) -> [MailAction] {
        guard settings.offers("ENABLE") else { throw .bad("Unknown command ENABLE.") }
        guard !arguments.isAtEnd else { throw .bad("Missing capability names.") }
        var turnedOn: [String] = []
        while !arguments.isAtEnd {
            let name = try arguments.keyword("capability name")
            let known = ["CONDSTORE", "QRESYNC", "UTF8=ACCEPT", "IMAP4REV2"]
            guard known.contains(name), settings.offers(name == "IMAP4REV2" ? "IMAP4REV2" : name) else { continue }
            if enabled.insert(name).inserted {
                turnedOn.append(name == "IMAP4REV2" ? "IMAP4rev2" : name)
            }
            if name == "QRESYNC", enabled.insert("CONDSTORE").inserted { turnedOn.append("CONDSTORE") }
        }
        return ok(command, untagged: "* ENABLED\(turnedOn.map { " \($0)" }.joined())\r\n", text: "Enabled.")
    }
}
