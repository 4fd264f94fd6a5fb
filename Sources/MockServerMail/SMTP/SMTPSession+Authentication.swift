import Foundation

extension SMTPSession {
    /// `AUTH mechanism [initial-response]` (RFC 4954).
    mutating func authenticate(_ argument: Substring) -> [SMTPAction] {
        guard hello?.extended == true else { return [Self.reply(503, "5.5.1 Error: send EHLO first")] }
        guard offersAuthentication else { return [Self.reply(503, "5.5.1 Error: authentication not enabled")] }
        guard authenticatedUser == nil else { return [Self.reply(503, "5.5.1 Error: already authenticated")] }
        guard transaction == nil else { return [Self.reply(503, "5.5.1 Error: MAIL transaction in progress")] }
        let words = argument.split(separator: " ")
        guard (1...2).contains(words.count) else { return [Self.reply(501, "5.5.4 Syntax: AUTH mechanism [initial-response]")] }
        challenges += 1
        let challenge = "<\(challenges).\(Int(now().timeIntervalSince1970))@\(settings.hostName)>"
        guard let mechanism = MailAuthMechanism(name: words[0]), settings.authenticationMechanisms.contains(mechanism),
              var exchange = MailAuthExchange(mechanism: words[0], initialResponse: words.count > 1 ? String(words[1]) : nil, challenge: challenge) else {
            return [Self.reply(504, "5.5.4 Unrecognized authentication type")]
        }
        switch consult(.smtpAuth, subject: subject(user: exchange.claimedUser)) {
        case .answer(let actions): return actions
        case .dropMidway: return drop(at: .smtpAuth)
        case .proceed: break
        }
        let step = exchange.start(login: store)
        return answer(step, of: exchange)
    }

    /// Answers the client's line during an exchange (recorded masked; `*` as itself).
    mutating func authenticationAnswer(_ line: ArraySlice<UInt8>) -> [SMTPAction] {
        guard case .authenticating(var exchange) = phase else { return [] }
        let cancel = line.elementsEqual("*".utf8)
        let step = exchange.respond(line, login: store)
        return [.record(Array((cancel ? "*" : "MASKED").utf8))] + answer(step, of: exchange)
    }

    /// The reply to an exchange's step, and the phase after it.
    private mutating func answer(_ step: MailAuthExchange.Step, of exchange: MailAuthExchange) -> [SMTPAction] {
        phase = .command
        switch step {
        case .challenge(let bytes):
            phase = .authenticating(exchange)
            return [.send(Array("334 \(Data(bytes).base64EncodedString())\r\n".utf8))]
        case .accepted(let address):
            authenticatedUser = address
            return [Self.reply(235, "2.7.0 Authentication successful")]
        case .refused:
            return [Self.reply(535, "5.7.8 Error: authentication failed")]
        case .malformed(let reason):
            return [Self.reply(501, "5.5.2 Error: \(reason)")]
        case .cancelled:
            return [Self.reply(501, "5.7.0 Error: authentication aborted")]
        }
    }
}
