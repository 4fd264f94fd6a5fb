import Foundation

extension SMTPSession {
    // MARK: DATA

    /// `DATA`: `354`, then the text up to CRLF.CRLF (RFC 5321 §4.1.1.4).
    mutating func data(_ argument: Substring) -> [SMTPAction] {
        guard argument.isEmpty else { return [Self.reply(501, "5.5.4 Syntax: DATA")] }
        guard hello != nil else { return [Self.reply(503, "5.5.1 Error: send HELO/EHLO first")] }
        guard let transaction else { return [Self.reply(503, "5.5.1 Error: need RCPT command")] }
        guard !transaction.chunked else { return [Self.reply(503, "5.5.1 Error: DATA after BDAT")] }
        guard !transaction.recipients.isEmpty else { return [Self.reply(554, "5.5.1 Error: no valid recipients")] }
        var receiver = DataReceiver()
        var line: [UInt8]?
        switch consult(.smtpData, subject: subject()) {
        case .answer(let actions): return actions
        case .dropMidway: receiver.dropMidway = true
        case .proceed(let success): line = success
        }
        self.transaction?.body = []
        phase = .data(receiver)
        return [.send(line ?? Self.line(354, "End data with <CR><LF>.<CR><LF>"))]
    }

    /// Takes what has arrived of DATA's text: unstuffs dots, bounds size and lines, and at
    /// CRLF.CRLF ends the message. Only CRLF begins a line, so a bare LF or CR before a dot never
    /// ends the message. Everything is consumed but a `.` or `.CR` at a line start, whose meaning
    /// the next bytes tell.
    mutating func receiveData(_ input: inout ArraySlice<UInt8>) -> [SMTPAction] {
        guard case .data(var receiver) = phase, transaction != nil, !input.isEmpty else { return [] }
        if receiver.dropMidway {
            input = input.dropFirst(max(1, input.count / 2))
            return drop(at: .smtpData)
        }
        var index = input.startIndex
        let end = input.endIndex
        while index < end {
            if receiver.atLineStart {
                if input[index] == Self.dot {
                    guard end - index >= 2 else { break }
                    if input[index + 1] == Self.cr {
                        guard end - index >= 3 else { break }
                        if input[index + 2] == Self.lf {
                            input = input[(index + 3)...]
                            phase = .command
                            return endOfMessage(tooBig: receiver.tooBig, lineTooLong: receiver.lineTooLong)
                        }
                    }
                    // A stuffed dot: dropped, the rest of the line kept.
                    index += 1
                    receiver.lineLength += 1
                }
                receiver.atLineStart = false
                continue
            }
            let lineFeed = input[index...].firstIndex(of: Self.lf)
            let segmentEnd = lineFeed.map { $0 + 1 } ?? end
            let segment = input[index..<segmentEnd]
            if !receiver.tooBig {
                if transaction!.body.count + segment.count > settings.maximumMessageSize {
                    receiver.tooBig = true
                    transaction!.body = []
                } else {
                    transaction!.body.append(contentsOf: segment)
                }
            }
            receiver.lineLength += segment.count
            if receiver.lineLength > settings.textLineLimit { receiver.lineTooLong = true }
            if let lineFeed {
                receiver.atLineStart = lineFeed > index ? input[lineFeed - 1] == Self.cr : receiver.afterCR
                receiver.afterCR = false
                receiver.lineLength = 0
            } else {
                receiver.afterCR = input[end - 1] == Self.cr
            }
            index = segmentEnd
        }
        input = input[index...]
        phase = .data(receiver)
        return []
    }

    // MARK: BDAT

    /// `BDAT size [LAST]` (RFC 3030): the size is plain digits below 2^63. A size that cannot be
    /// read leaves no way to tell where the chunk ends, so, as Postfix does, the session answers
    /// `521 5.5.4` and closes rather than read the chunk's bytes as commands. A refused chunk's bytes
    /// are still read (and discarded) so that they are never taken for commands; its answer comes
    /// once all of it has arrived. The fault point ``MailFaultPoint/smtpChunk`` is asked here, when
    /// the command is read, and its reply given after the chunk.
    mutating func bdat(_ argument: Substring) -> [SMTPAction] {
        let words = argument.split(separator: " ")
        guard (1...2).contains(words.count), words[0].count <= 19, Self.isDigits(words[0]), let size = UInt64(words[0]), size < 1 << 63,
              words.count == 1 || words[1].uppercased() == "LAST" else {
            phase = .closed
            transaction = nil
            return [Self.reply(521, "5.5.4 Syntax: BDAT count [LAST]"), .close("BDAT without a readable size")]
        }
        var receiver = ChunkReceiver(remaining: size, size: size, last: words.count == 2)
        if case .refusedGreeting = phase {
            receiver.refusal = Self.line(503, "5.5.1 Error: service refused; send QUIT")
            receiver.afterRefusedGreeting = true
        } else if settings.tls == .required, !security.isEncrypted {
            receiver.refusal = Self.line(530, "5.7.0 Must issue a STARTTLS command first")
        } else if hello == nil {
            receiver.refusal = Self.line(503, "5.5.1 Error: send HELO/EHLO first")
        } else if let transaction {
            if transaction.recipients.isEmpty {
                receiver.refusal = Self.line(554, "5.5.1 Error: no valid recipients")
            } else if UInt64(transaction.body.count) + size > UInt64(settings.maximumMessageSize) {
                receiver.refusal = Self.line(552, "5.3.4 Message size exceeds fixed limit")
            } else {
                switch consult(.smtpChunk, subject: subject()) {
                case .answer(let actions):
                    if isClosed { return actions }
                    if case .send(let line) = actions.first { receiver.refusal = line }
                case .dropMidway: receiver.dropMidway = true
                case .proceed(let line): receiver.successLine = line
                }
            }
        } else {
            receiver.refusal = Self.line(503, "5.5.1 Error: need MAIL command")
        }
        phase = .chunk(receiver)
        if size == 0 {
            var none = ArraySlice<UInt8>()
            return receiveChunk(&none)
        }
        return []
    }

    /// Takes what has arrived of a BDAT chunk, and answers once all of it has.
    mutating func receiveChunk(_ input: inout ArraySlice<UInt8>) -> [SMTPAction] {
        guard case .chunk(var receiver) = phase else { return [] }
        let count = Int(min(receiver.remaining, UInt64(input.count)))
        if receiver.dropMidway, receiver.remaining > 0 {
            guard !input.isEmpty else { return [] }
            input = input.dropFirst(max(1, count / 2))
            return drop(at: .smtpChunk)
        }
        if receiver.refusal == nil { transaction!.body.append(contentsOf: input.prefix(count)) }
        input = input.dropFirst(count)
        receiver.remaining -= UInt64(count)
        guard receiver.remaining == 0 else {
            phase = .chunk(receiver)
            return []
        }
        phase = receiver.afterRefusedGreeting ? .refusedGreeting : .command
        if let refusal = receiver.refusal {
            // A refused chunk fails its transaction (RFC 3030 §2): the client starts again with MAIL.
            transaction = nil
            return [.send(refusal)]
        }
        transaction!.chunked = true
        if receiver.last { return endOfMessage(tooBig: false, lineTooLong: false, successLine: receiver.successLine) }
        return [.send(receiver.successLine ?? Self.line(250, "2.0.0 \(receiver.size) octets received"))]
    }

    // MARK: The end of a message

    /// Ends the transaction: refuses a message too big or with too long a line, asks the fault
    /// point ``MailFaultPoint/smtpEndOfData``, else stores the message and answers `250`.
    private mutating func endOfMessage(tooBig: Bool, lineTooLong: Bool, successLine: [UInt8]? = nil) -> [SMTPAction] {
        guard let transaction else { return [] }
        if tooBig {
            self.transaction = nil
            return [Self.reply(552, "5.3.4 Message size exceeds fixed limit")]
        }
        if lineTooLong {
            self.transaction = nil
            return [Self.reply(500, "5.5.2 Error: message line too long")]
        }
        var line = successLine
        switch consult(.smtpEndOfData, subject: subject()) {
        case .answer(let actions):
            self.transaction = nil
            return actions
        case .dropMidway: return drop(at: .smtpEndOfData)
        case .proceed(let success): line = success ?? line
        }
        self.transaction = nil
        let origin = MailOrigin.smtp(heloName: hello?.name ?? "", client: client, security: security, user: authenticatedUser?.text)
        let envelope = MailEnvelope(sender: transaction.sender, recipients: transaction.recipients, origin: origin)
        let stored = store.deliver(Data(transaction.body), envelope: envelope, time: now())
        return [.delivered(stored), .send(line ?? Self.line(250, "2.0.0 Ok: queued as \(stored.id)"))]
    }
}
