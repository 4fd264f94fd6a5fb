import Foundation

extension POP3Session {
    /// AUTH (RFC 5034): with no argument, the mechanisms offered as a list (the discovery Outlook
    /// uses and Dovecot answers); with a mechanism, its exchange (``MailAuthExchange``), begun
    /// with the initial response if one is given (`=` for an empty one). CRAM-MD5's challenge is
    /// the greeting's timestamp.
    mutating func authCommand(_ command: POP3Command) -> [MailAction] {
        let (name, initialResponse) = command.argumentWords
        guard !name.isEmpty else {
            let names = settings.authenticationMechanisms.map(\.rawValue)
            return [.send(Array((["+OK"] + names + ["."]).map { $0 + "\r\n" }.joined().utf8))]
        }
        guard let mechanism = MailAuthMechanism(name: name), settings.authenticationMechanisms.contains(mechanism),
              var exchange = MailAuthExchange(mechanism: name, initialResponse: initialResponse.isEmpty ? nil : String(initialResponse),
                                              challenge: timestamp) else {
            return [Self.error("[AUTH] Unsupported authentication mechanism.")]
        }
        let step = exchange.start(login: store)
        return answer(step, of: exchange)
    }

    /// Answers one line of an AUTH exchange: the client's base64 response, or `*` to cancel
    /// (recorded as itself; any other line as `MASKED`).
    mutating func answerSASL(_ line: some Collection<UInt8>) -> [MailAction] {
        guard case .authenticating(var exchange) = state else { return [] }
        let recorded = line.elementsEqual("*".utf8) ? Array(line) : POP3Command.masked
        let step = exchange.respond(line, login: store)
        return [.record(recorded)] + answer(step, of: exchange)
    }

    /// The reply to an exchange's step, and the state after it. A finished login asks the
    /// ``MailFaultPoint/pop3Pass`` fault with the user the exchange named, which answers
    /// instead of the login's result.
    private mutating func answer(_ step: MailAuthExchange.Step, of exchange: MailAuthExchange) -> [MailAction] {
        state = .authorization(user: nil)
        switch step {
        case .challenge(let bytes):
            state = .authenticating(exchange)
            return [.send(Array("+ \(Data(bytes).base64EncodedString())\r\n".utf8))]
        case .accepted(let address):
            return passFault(user: exchange.user ?? address.text) ?? loggedIn(.accepted(address))
        case .refused(let user, let result):
            return passFault(user: user) ?? loggedIn(result)
        case .malformed(let reason):
            return [Self.error("[AUTH] Invalid SASL response: \(reason).")]
        case .cancelled:
            return [Self.error("Authentication aborted by client.")]
        }
    }
}
