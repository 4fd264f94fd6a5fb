extension SMTPSession {
    /// What a fault point comes to.
    enum FaultOutcome {
        /// Go on as the server: with the session's own success line (nil) or with a fault's
        /// 2xx/3xx line standing in for it.
        case proceed([UInt8]?)
        /// The fault answered (a 4xx/5xx, or a drop): these actions, and the command is not carried out.
        case answer([SMTPAction])
        /// Close after part of the data has arrived (DATA, BDAT); elsewhere the caller drops at once.
        case dropMidway
    }

    /// Asks the fault source at `point`. A reply of 400 or more refuses (421 also closes, as
    /// RFC 5321 §3.8 says a server does after it); a lower code proceeds with that line instead of
    /// the session's own where its answer is one line (the greeting, MAIL, RCPT, DATA's 354, a
    /// chunk, the end of data).
    mutating func consult(_ point: MailFaultPoint, subject: MailFaultSubject) -> FaultOutcome {
        guard let decision = faults?.decide(point, subject: subject) else { return .proceed(nil) }
        switch decision {
        case .drop:
            return .answer(drop(at: point))
        case .dropMidway:
            return .dropMidway
        case .reply(let code, let text):
            // A line break in the text would end the reply early and forge another one.
            let text = String(text.map { $0.isNewline ? " " : $0 })
            let line = Self.line(code, text)
            guard code >= 400 else { return .proceed(line) }
            if code == 421 {
                phase = .closed
                return .answer([.send(line), .close("fault at \(point.rawValue): 421")])
            }
            return .answer([.send(line)])
        }
    }

    /// Closes at once without a word, as a fault at `point` asked.
    mutating func drop(at point: MailFaultPoint) -> [SMTPAction] {
        phase = .closed
        transaction = nil
        return [.close("fault at \(point.rawValue): dropped")]
    }

    /// Who a fault is asked about now: the transaction's sender, the logged-in user and `recipient`.
    func subject(recipient: String? = nil, user: String? = nil) -> MailFaultSubject {
        MailFaultSubject(sender: transaction?.sender, recipient: recipient, user: user ?? authenticatedUser?.text)
    }

    /// One reply line, `code text` and CRLF.
    static func line(_ code: Int, _ text: String) -> [UInt8] {
        Array("\(code) \(text)\r\n".utf8)
    }

    /// Sends one reply line.
    static func reply(_ code: Int, _ text: String) -> SMTPAction {
        .send(line(code, text))
    }
}
