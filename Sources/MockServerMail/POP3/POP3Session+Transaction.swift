extension POP3Session {
    /// Answers a command in TRANSACTION, on the session's maildrop.
    mutating func answerTransaction(_ command: POP3Command) -> [MailAction] {
        guard case .transaction(let maildrop) = state else { return [] }
        switch command.keyword {
        case "CAPA": return [capabilities()]
        case "STAT":
            let (count, size) = maildrop.statistics
            return [Self.ok("\(count) \(size)")]
        case "LIST": return list(command.argument, in: maildrop)
        case "UIDL": return uniqueIDs(command.argument, in: maildrop)
        case "RETR":
            switch Self.messageIndex(command.argument, in: maildrop, followedBySpace: false) {
            case .failure(let refusal): return [refusal.reply]
            case .success(let (index, _)): return retrieve(index, bodyLines: nil, from: maildrop)
            }
        case "TOP": return top(command.argument, in: maildrop)
        case "DELE":
            switch Self.messageIndex(command.argument, in: maildrop, followedBySpace: false) {
            case .failure(let refusal): return [refusal.reply]
            case .success(let (index, _)):
                changeMaildrop { $0.delete(index) }
                return [Self.ok("Marked to be deleted.")]
            }
        case "RSET":
            changeMaildrop { $0.undeleteAll() }
            return [Self.ok()]
        case "NOOP": return [Self.ok()]
        case "QUIT": return quit(maildrop)
        case "":
            return [Self.error("Unknown command.")]
        default:
            return [Self.error("Unknown command: \(command.keyword)")]
        }
    }

    /// Changes the maildrop of TRANSACTION (nothing in another state, as after a RETR that
    /// dropped the connection).
    private mutating func changeMaildrop(_ change: (inout POP3Maildrop) -> Void) {
        guard case .transaction(var maildrop) = state else { return }
        change(&maildrop)
        state = .transaction(maildrop)
    }

    /// LIST, of every message not deleted or of one.
    private func list(_ argument: String, in maildrop: POP3Maildrop) -> [MailAction] {
        guard argument.isEmpty else {
            switch Self.messageIndex(argument, in: maildrop, followedBySpace: false) {
            case .failure(let refusal): return [refusal.reply]
            case .success(let (index, _)): return [Self.ok("\(index + 1) \(maildrop.messages[index].size)")]
            }
        }
        var text = "+OK \(maildrop.statistics.count) messages:\r\n"
        for index in maildrop.messages.indices where !maildrop.deleted[index] {
            text += "\(index + 1) \(maildrop.messages[index].size)\r\n"
        }
        return [.send(Array((text + ".\r\n").utf8))]
    }

    /// UIDL (RFC 1939 §7), of every message not deleted or of one.
    private func uniqueIDs(_ argument: String, in maildrop: POP3Maildrop) -> [MailAction] {
        guard argument.isEmpty else {
            switch Self.messageIndex(argument, in: maildrop, followedBySpace: false) {
            case .failure(let refusal): return [refusal.reply]
            case .success(let (index, _)): return [Self.ok("\(index + 1) \(maildrop.uniqueID(of: index))")]
            }
        }
        var text = "+OK\r\n"
        for index in maildrop.messages.indices where !maildrop.deleted[index] {
            text += "\(index + 1) \(maildrop.uniqueID(of: index))\r\n"
        }
        return [.send(Array((text + ".\r\n").utf8))]
    }

    /// TOP n k (RFC 1939 §7): the header, the empty line and k lines of the body.
    private mutating func top(_ argument: String, in maildrop: POP3Maildrop) -> [MailAction] {
        switch Self.messageIndex(argument, in: maildrop, followedBySpace: true) {
        case .failure(let refusal): return [refusal.reply]
        case .success(let (index, rest)):
            switch Self.number(rest, followedBySpace: false, noun: "size") {
            case .failure(let refusal): return [refusal.reply]
            case .success(let (lines, _)): return retrieve(index, bodyLines: lines, from: maildrop)
            }
        }
    }

    /// RETR (`bodyLines` nil) or TOP of message `index`, after the
    /// ``MailFaultPoint/pop3Retrieve`` fault: the status line and the message, stuffed, sent a
    /// part at a time (``POP3Session/transmissionChunk``); for `.dropMidway`, half of it and a close.
    private mutating func retrieve(_ index: Int, bodyLines: Int?, from maildrop: POP3Maildrop) -> [MailAction] {
        let message = maildrop.messages[index]
        let decision = faults?.decide(.pop3Retrieve, subject: MailFaultSubject(user: maildrop.address.text))
        switch decision {
        case .reply(let code, let text)?: return [Self.error(code: code, text: text, at: .pop3Retrieve)]
        case .drop?:
            state = .closed
            return [.close("fault: drop at pop3.retr")]
        case .dropMidway?, nil: break
        }
        var maildrop = maildrop
        if bodyLines == nil { maildrop.noteRetrieved(index) }
        let raw = message.entry.transaction.raw
        var transmission = POP3Transmission(raw, bodyLines: bodyLines, stoppingAt: decision == .dropMidway ? raw.count / 2 : nil)
        state = .connecting
        let status = bodyLines == nil ? "+OK \(message.size) octets\r\n" : "+OK\r\n"
        return sendPart(of: &transmission, after: Array(status.utf8), maildrop: maildrop)
    }

    /// Sends the next part of `transmission` after `prefix`: TRANSACTION again once it is all
    /// sent, a close once a drop half-way reaches its stop, else more to send on the next call.
    mutating func sendPart(of transmission: inout POP3Transmission, after prefix: [UInt8], maildrop: POP3Maildrop) -> [MailAction] {
        var bytes = prefix
        guard transmission.append(to: &bytes, limit: Self.transmissionChunk) else {
            state = .retrieving(maildrop, transmission)
            return [.send(bytes)]
        }
        guard transmission.stopsMidway else {
            state = .transaction(maildrop)
            return [.send(bytes)]
        }
        state = .closed
        return (bytes.isEmpty ? [] : [.send(bytes)]) + [.close("fault: drop midway at pop3.retr")]
    }

    /// Reads a message number at the start of `argument` (RETR's, DELE's, LIST's, TOP's first):
    /// its index and what follows it (after a space and any more, for TOP), or why it is refused.
    static func messageIndex(_ argument: some StringProtocol, in maildrop: POP3Maildrop,
                             followedBySpace: Bool) -> Result<(Int, Substring), POP3Refusal> {
        switch number(argument, followedBySpace: followedBySpace, noun: "message number") {
        case .failure(let refusal): return .failure(refusal)
        case .success(let (number, rest)):
            guard number >= 1, number <= maildrop.messages.count else { return .failure(POP3Refusal(text: "There's no message \(number).")) }
            guard !maildrop.deleted[number - 1] else { return .failure(POP3Refusal(text: "Message is deleted.")) }
            return .success((number - 1, rest))
        }
    }

    /// Reads a decimal number at the start of `text`, then a space (and any more) or the end,
    /// as Dovecot does, with its texts for each refusal (`noun`: "message number" or "size").
    static func number(_ text: some StringProtocol, followedBySpace: Bool, noun: String) -> Result<(Int, Substring), POP3Refusal> {
        let text = Substring(text)
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return .failure(POP3Refusal(text: "Invalid \(noun): \(text)")) }
        guard let value = Int(digits) else {
            return .failure(POP3Refusal(text: "\(noun == "size" ? "Size" : "Message number") too large: \(text)"))
        }
        let rest = text[digits.endIndex...]
        guard followedBySpace ? rest.first == " " : rest.isEmpty else {
            return .failure(POP3Refusal(text: "Noise after \(noun): \(rest)"))
        }
        return .success((value, rest.drop { $0 == " " }))
    }

    /// QUIT in TRANSACTION: UPDATE (RFC 1939 §6) removes the marked messages from the store and
    /// flags those RETR sent `\Seen` (as Dovecot does), then the connection closes.
    private mutating func quit(_ maildrop: POP3Maildrop) -> [MailAction] {
        let uids = maildrop.deletedUIDs
        if !uids.isEmpty { store.remove(uids: uids, of: maildrop.address.text) }
        for uid in maildrop.retrievedUIDs {
            store.updateFlags(uid: uid, of: maildrop.address.text) { $0.insert(.seen) }
        }
        state = .update
        return [Self.ok(uids.isEmpty ? "Logging out." : "Logging out, messages deleted."), .close("QUIT")]
    }
}
