import Foundation

extension SMTPSession {
    /// The commands allowed before TLS when TLS is required.
    static let beforeTLS: Set<String> = ["EHLO", "HELO", "NOOP", "QUIT", "STARTTLS"]

    /// Answers one command line, already cut, without its line end (a driver's script found no
    /// pattern for it). Call it only while ``expectsCommand`` is true; during an AUTH exchange
    /// the line is taken as the client's answer, and in other states nothing is answered.
    package mutating func command(_ line: ArraySlice<UInt8>) -> [SMTPAction] {
        switch phase {
        case .command, .refusedGreeting: break
        case .authenticating: return authenticationAnswer(line)
        default: return []
        }
        let limit = lineLimit(forCommandStartingWith: line)
        guard line.count <= limit - 2 else { return lineTooLong(line.prefix(limit - 2)) }
        guard let text = String(validating: line, as: UTF8.self) else {
            return [.record(Self.recorded(line)), Self.reply(500, "5.5.2 Error: bad UTF-8 syntax")]
        }
        let space = text.firstIndex(of: " ") ?? text.endIndex
        let verb = text[..<space].uppercased()
        let argument = text[space...].trimmingCharacters(in: .whitespaces)[...]
        let record = SMTPAction.record(verb == "AUTH" ? Self.maskedAuthLine(argument) : Array(line))
        return [record] + answer(verb: verb, argument: argument)
    }

    /// `AUTH MECHANISM`, with `MASKED` for an initial response, as the transcript shows it.
    static func maskedAuthLine(_ argument: Substring) -> [UInt8] {
        let words = argument.split(separator: " ", maxSplits: 1)
        let shown = ["AUTH"] + words.prefix(1).map(String.init) + (words.count > 1 ? ["MASKED"] : [])
        return Array(shown.joined(separator: " ").utf8)
    }

    /// The answer to an over-long command line (its first bytes recorded).
    func lineTooLong(_ head: ArraySlice<UInt8>) -> [SMTPAction] {
        [.record(Self.recorded(head)), Self.reply(500, "5.5.2 Error: line too long")]
    }

    /// A line as the transcript shows it when it could not be read as a command: an AUTH line's
    /// credentials masked, any other as it came.
    static func recorded(_ line: ArraySlice<UInt8>) -> [UInt8] {
        let isAuth = line.count >= 5 && line.prefix(5).map { $0 & 0xDF }.elementsEqual("AUTH ".utf8.map { $0 & 0xDF })
        return isAuth ? Array("AUTH MASKED".utf8) : Array(line)
    }

    /// Answers `verb` with its `argument` (trimmed).
    private mutating func answer(verb: String, argument: Substring) -> [SMTPAction] {
        if case .refusedGreeting = phase {
            // A chunk is read (and refused) even here, so that its bytes are never taken for commands (RFC 3030 §2).
            if verb == "BDAT" { return bdat(argument) }
            guard verb == "QUIT" else { return [Self.reply(503, "5.5.1 Error: service refused; send QUIT")] }
        } else if settings.tls == .required, !security.isEncrypted, !Self.beforeTLS.contains(verb) {
            if verb == "BDAT" { return bdat(argument) }
            return [Self.reply(530, "5.7.0 Must issue a STARTTLS command first")]
        }
        switch verb {
        case "EHLO", "HELO": return hello(argument, extended: verb == "EHLO")
        case "MAIL": return mail(argument)
        case "RCPT": return recipient(argument)
        case "DATA": return data(argument)
        case "BDAT": return bdat(argument)
        case "RSET":
            guard argument.isEmpty else { return [Self.reply(501, "5.5.4 Syntax: RSET")] }
            transaction = nil
            return [Self.reply(250, "2.0.0 Ok")]
        case "NOOP": return [Self.reply(250, "2.0.0 Ok")]
        case "VRFY":
            guard !argument.isEmpty else { return [Self.reply(501, "5.5.4 Syntax: VRFY address")] }
            return [Self.reply(252, "2.0.0 Cannot verify the user; send mail and delivery will be attempted")]
        case "EXPN", "ETRN", "TURN", "SEND", "SOML", "SAML":
            return [Self.reply(502, "5.5.1 Error: command not implemented")]
        case "HELP":
            return [Self.reply(214, "2.0.0 Commands: EHLO HELO MAIL RCPT DATA BDAT RSET NOOP VRFY HELP QUIT STARTTLS AUTH")]
        case "QUIT":
            phase = .closed
            transaction = nil
            return [Self.reply(221, "2.0.0 Bye"), .close("QUIT")]
        case "STARTTLS": return startTLS(argument)
        case "AUTH": return authenticate(argument)
        case "": return [Self.reply(500, "5.5.2 Error: bad syntax")]
        default: return [Self.reply(500, "5.5.2 Error: command not recognized")]
        }
    }

    // MARK: EHLO, HELO

    /// Whether EHLO offers AUTH now: mechanisms configured, and under TLS when TLS is required.
    var offersAuthentication: Bool {
        !settings.authenticationMechanisms.isEmpty && (settings.tls != .required || security.isEncrypted)
    }

    /// Whether EHLO offers STARTTLS now.
    var offersStartTLS: Bool {
        (settings.tls == .offered || settings.tls == .required) && !security.isEncrypted
    }

    /// `EHLO` or `HELO` (RFC 5321 §4.1.1.1): a new start, the transaction forgotten; EHLO lists the extensions.
    private mutating func hello(_ argument: Substring, extended: Bool) -> [SMTPAction] {
        guard !argument.isEmpty else { return [Self.reply(501, "5.5.4 Syntax: \(extended ? "EHLO" : "HELO") hostname")] }
        switch consult(.smtpHello, subject: subject()) {
        case .answer(let actions): return actions
        case .dropMidway: return drop(at: .smtpHello)
        case .proceed: break
        }
        hello = Hello(name: String(argument), extended: extended)
        transaction = nil
        guard extended else { return [Self.reply(250, settings.hostName)] }
        var lines = [settings.hostName, "PIPELINING", "SIZE \(settings.maximumMessageSize)"]
        if offersStartTLS { lines.append("STARTTLS") }
        if offersAuthentication { lines.append("AUTH " + settings.authenticationMechanisms.map(\.rawValue).joined(separator: " ")) }
        lines += ["ENHANCEDSTATUSCODES", "8BITMIME", "DSN", "SMTPUTF8", "CHUNKING"]
        var bytes: [UInt8] = []
        for (index, line) in lines.enumerated() {
            bytes += Array("250\(index == lines.count - 1 ? " " : "-")\(line)\r\n".utf8)
        }
        return [.send(bytes)]
    }

    // MARK: MAIL, RCPT

    /// `MAIL FROM:<path> [parameters]` (RFC 5321 §4.1.1.2): SIZE, BODY, SMTPUTF8 and DSN's RET
    /// and ENVID, and AUTH= are checked and accepted (the transcript keeps the line).
    private mutating func mail(_ argument: Substring) -> [SMTPAction] {
        guard hello != nil else { return [Self.reply(503, "5.5.1 Error: send HELO/EHLO first")] }
        guard transaction == nil else { return [Self.reply(503, "5.5.1 Error: nested MAIL command")] }
        if settings.requiresAuthentication, authenticatedUser == nil { return [Self.reply(530, "5.7.0 Authentication required")] }
        let path: SMTPPathArgument
        do { path = try SMTPPathArgument(argument, keyword: "FROM:") } catch {
            return [error == .syntax ? Self.reply(501, "5.5.4 Syntax: MAIL FROM:<address>") : Self.reply(501, "5.1.7 Bad sender address syntax")]
        }
        var utf8 = false
        for (keyword, value) in path.parameters {
            switch (keyword, value) {
            case ("SIZE", let value?) where Self.isDigits(value):
                let digits = value.drop { $0 == "0" }
                if digits.count > 18 || Int(digits) ?? 0 > settings.maximumMessageSize {
                    return [Self.reply(552, "5.3.4 Message size exceeds fixed limit")]
                }
            case ("BODY", let value?) where ["7BIT", "8BITMIME"].contains(value.uppercased()): break
            case ("SMTPUTF8", nil): utf8 = true
            case ("RET", let value?) where ["FULL", "HDRS"].contains(value.uppercased()): break
            case ("ENVID", let value?) where !value.isEmpty && value.count <= 100: break
            case ("AUTH", let value?) where !value.isEmpty: break
            case ("SIZE", _), ("BODY", _), ("SMTPUTF8", _), ("RET", _), ("ENVID", _), ("AUTH", _):
                return [Self.reply(501, "5.5.4 Bad \(keyword) parameter syntax")]
            default:
                return [Self.reply(555, "5.5.4 Unsupported option: \(keyword)")]
            }
        }
        if !utf8, !path.address.allSatisfy(\.isASCII) {
            return [Self.reply(553, "5.6.7 Must declare SMTPUTF8 to send a UTF-8 address")]
        }
        let transaction = Transaction(sender: path.address, utf8: utf8)
        switch consult(.smtpMail, subject: MailFaultSubject(sender: path.address, user: authenticatedUser?.text)) {
        case .answer(let actions): return actions
        case .dropMidway: return drop(at: .smtpMail)
        case .proceed(let line):
            self.transaction = transaction
            return [.send(line ?? Self.line(250, "2.1.0 Ok"))]
        }
    }

    /// `RCPT TO:<path> [parameters]` (RFC 5321 §4.1.1.3), with DSN's NOTIFY and ORCPT; each
    /// past the recipient limit gets `452`.
    private mutating func recipient(_ argument: Substring) -> [SMTPAction] {
        guard hello != nil else { return [Self.reply(503, "5.5.1 Error: send HELO/EHLO first")] }
        guard let transaction else { return [Self.reply(503, "5.5.1 Error: need MAIL command")] }
        guard !transaction.chunked else { return [Self.reply(503, "5.5.1 Error: RCPT after BDAT")] }
        let path: SMTPPathArgument
        do { path = try SMTPPathArgument(argument, keyword: "TO:") } catch {
            return [error == .syntax ? Self.reply(501, "5.5.4 Syntax: RCPT TO:<address>") : Self.reply(501, "5.1.3 Bad recipient address syntax")]
        }
        guard !path.address.isEmpty else { return [Self.reply(501, "5.1.3 Bad recipient address syntax")] }
        for (keyword, value) in path.parameters {
            switch (keyword, value) {
            case ("NOTIFY", let value?) where Self.isNotify(value): break
            case ("ORCPT", let value?) where value.firstIndex(of: ";").map { $0 != value.startIndex && value.index(after: $0) != value.endIndex } == true: break
            case ("NOTIFY", _), ("ORCPT", _):
                return [Self.reply(501, "5.5.4 Bad \(keyword) parameter syntax")]
            default:
                return [Self.reply(555, "5.5.4 Unsupported option: \(keyword)")]
            }
        }
        if !transaction.utf8, !path.address.allSatisfy(\.isASCII) {
            return [Self.reply(553, "5.6.7 Must declare SMTPUTF8 to send a UTF-8 address")]
        }
        guard transaction.recipients.count < settings.maximumRecipients else { return [Self.reply(452, "4.5.3 Error: too many recipients")] }
        switch consult(.smtpRecipient, subject: subject(recipient: path.address)) {
        case .answer(let actions): return actions
        case .dropMidway: return drop(at: .smtpRecipient)
        case .proceed(let line):
            self.transaction?.recipients.append(path.address)
            return [.send(line ?? Self.line(250, "2.1.5 Ok"))]
        }
    }

    /// Whether `text` is one or more ASCII digits (not any Unicode digit).
    static func isDigits(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Whether `value` is DSN's NOTIFY (RFC 3461 §4.1): `NEVER`, or some of SUCCESS, FAILURE, DELAY.
    private static func isNotify(_ value: String) -> Bool {
        let words = value.uppercased().split(separator: ",", omittingEmptySubsequences: false)
        if words == ["NEVER"] { return true }
        return !words.isEmpty && words.allSatisfy { ["SUCCESS", "FAILURE", "DELAY"].contains($0) } && Set(words).count == words.count
    }

    // MARK: STARTTLS

    /// `STARTTLS` (RFC 3207): `220`, then input is discarded until ``tlsStarted()``.
    private mutating func startTLS(_ argument: Substring) -> [SMTPAction] {
        guard argument.isEmpty else { return [Self.reply(501, "5.5.4 Syntax: STARTTLS")] }
        guard settings.tls == .offered || settings.tls == .required else { return [Self.reply(502, "5.5.1 Error: command not implemented")] }
        guard !security.isEncrypted else { return [Self.reply(554, "5.5.1 Error: TLS already active")] }
        phase = .awaitingTLS
        return [Self.reply(220, "2.0.0 Ready to start TLS"), .startTLS]
    }
}
