extension POP3Session {
    private static let lf: UInt8 = 0x0A, cr: UInt8 = 0x0D

    /// The longest line accepted in the current state, its terminator included: a command's
    /// (``POP3Settings/commandLineLimit``) or, inside an AUTH exchange, a SASL response's
    /// (``POP3Settings/authenticationLineLimit``).
    private var lineLimit: Int {
        if case .authenticating = state { return settings.authenticationLineLimit }
        return settings.commandLineLimit
    }

    /// Answers the front of `input`, the bytes received and not consumed yet: removes from it
    /// what it answered and returns the actions. One line (command or SASL response) a call,
    /// or, while RETR or TOP sends a large message, its next part (consuming nothing); `[]`
    /// with nothing consumed waits for more input.
    ///
    /// A line may end CRLF or LF. A line longer than the limit gets one `-ERR Input line too
    /// long.` as soon as the limit is passed, and the rest of it, up to its LF, is skipped
    /// (consumed without an answer), so it is never read as several commands.
    package mutating func read(_ input: inout ArraySlice<UInt8>) -> [MailAction] {
        switch state {
        case .connecting:
            return []
        case .startingTLS, .update, .closed:
            // Plain input after STLS (RFC 2595 §4) or after the end is never answered.
            input = input[input.endIndex...]
            return []
        case .retrieving(let maildrop, var transmission):
            // The next part of the message; the input waits.
            state = .connecting
            return sendPart(of: &transmission, after: [], maildrop: maildrop)
        case .authorization, .authenticating, .transaction:
            break
        }
        if case .skippingLongLine = framing {
            guard let newline = input.firstIndex(of: Self.lf) else {
                input = input[input.endIndex...]
                return []
            }
            input = input[(newline + 1)...]
            framing = .lineStart
        }
        if let line = cutLine(&input) {
            if case .authenticating = state { return answerSASL(line) }
            let actions = answer(commandLine: line)
            // Commands pipelined after STLS, in the same read, are dropped unanswered (RFC 2595 §4).
            if case .startingTLS = state { input = input[input.endIndex...] }
            return actions
        }
        guard input.count >= lineLimit else { return [] }
        // No LF within the limit: too long. Answered now, skipped to its end.
        let head = input.prefix(lineLimit)
        input = input[head.endIndex...]
        framing = .skippingLongLine
        if case .authenticating = state {
            state = .authorization(user: nil)
            return [.record(POP3Command.masked), Self.error("Input line too long.")]
        }
        return [.record(POP3Command(head).recorded), Self.error("Input line too long.")]
    }

    /// Cuts the next command line from the front of `input` when ``expectsCommand``: its bytes
    /// without CRLF or LF, consumed from `input`. Nil, consuming nothing, when no whole line
    /// within the limit is there (incomplete, or over-long: ``read(_:)`` answers that one).
    package func takeCommandLine(_ input: inout ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard expectsCommand else { return nil }
        return cutLine(&input)
    }

    /// The next line within ``lineLimit`` at the front of `input`, without its terminator.
    private func cutLine(_ input: inout ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let newline = input.prefix(lineLimit).firstIndex(of: Self.lf) else { return nil }
        var end = newline
        if end > input.startIndex, input[end - 1] == Self.cr { end -= 1 }
        let line = input[..<end]
        input = input[(newline + 1)...]
        return line
    }
}
