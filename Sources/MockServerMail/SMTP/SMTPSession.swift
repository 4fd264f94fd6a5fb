import Foundation
import MockServerCore

/// The server side of one SMTP connection (RFC 5321 with PIPELINING, SIZE, 8BITMIME, SMTPUTF8,
/// ENHANCEDSTATUSCODES, CHUNKING, DSN, STARTTLS and AUTH) as a state value: bytes in, ``SMTPAction``s
/// out. It frames its own input, delivers to a ``MailStore`` and asks a ``MailFaultSource`` at each
/// ``MailFaultPoint``; it never sees a socket. One per connection, on the connection's loop thread.
///
/// ## Driving it from a connection
/// ```swift
/// var session = SMTPSession(settings: settings, store: store, faults: faults, client: peer, security: .plain)
/// run(session.start())                                  // the greeting (or a fault's answer)
/// // each time input arrives, and again while the session consumes or acts:
/// let actions = session.read(&input)                    // consumes ONE unit from input's front
/// // [] with nothing consumed: wait for more input.
/// run(actions)   // .send, .record, .delivered, .close(reason), .startTLS → handshake, then session.tlsStarted()
/// // the peer finished sending:
/// run(session.inputEnded(&input))
/// ```
/// - ``read(_:)`` answers one unit per call: a command line (or an over-long one's `500`), an
///   AUTH answer line, or what has arrived of DATA's text or a BDAT chunk. Pipelined commands are
///   so answered in order, one call each; call it again while it consumes or returns actions.
/// - **Response scripts first.** While ``expectsCommand`` is true the next input is a command line:
///   a driver may cut it with ``commandLine(in:)`` (nil: incomplete or over-long, let ``read(_:)``
///   deal with it), try its patterns on it, and if none takes it, either hand the line to
///   ``command(_:)`` (and drop those bytes from its input itself) or simply call ``read(_:)``, which
///   cuts the same line again.
/// - **STARTTLS.** The answer is `[.record, .send(220…), .startTLS]`. Input held at that point was
///   sent before the handshake: ``read(_:)`` discards it in the same call (and any call until
///   ``tlsStarted()``); a driver that used ``command(_:)`` drops its buffer itself. After the
///   handshake call ``tlsStarted()``: the session forgets the EHLO, AUTH and transaction (RFC 3207 §4.2).
/// - **Implicit TLS** is ``MailTLSMode/implicit`` in the settings: the session is under TLS from its start.
/// - Input a driver holds is bounded by the session: at most ``SMTPSettings/authenticationLineLimit``
///   bytes of an unfinished line, 2 of an unfinished DATA end; a driver's input limit must exceed that.
package struct SMTPSession {
    /// The session's configuration.
    package let settings: SMTPSettings
    /// Where messages go, and who may log in.
    let store: MailStore
    /// Asked at each fault point; nil answers as the server always.
    let faults: (any MailFaultSource)?
    /// The client's address, for the stored envelope's origin.
    let client: NetworkAddress?
    /// The clock stamping stored messages and CRAM-MD5 challenges.
    let now: () -> Date
    /// Where the dialogue stands, and what the next input is.
    var phase: Phase = .idle
    /// Whether and how the connection is under TLS now.
    package internal(set) var security: MailTransportSecurity
    /// The client's EHLO/HELO; nil before one (and after STARTTLS).
    var hello: Hello?
    /// The user AUTH accepted; nil before (and after STARTTLS).
    package internal(set) var authenticatedUser: MailboxAddress?
    /// The transaction under way, from MAIL to its end.
    var transaction: Transaction?
    /// How many AUTH exchanges began, to make each CRAM-MD5 challenge unique.
    var challenges = 0

    /// A session for one connection, not started yet.
    ///
    /// - Parameters:
    ///   - settings: name, limits, TLS and AUTH.
    ///   - store: the mailbox messages are delivered to and logins checked against.
    ///   - faults: the failures to make on demand; nil for none.
    ///   - client: the peer's address, kept in each stored message's origin.
    ///   - security: the connection's security at its start (`.implicitTLS` on a TLS listener);
    ///     by default `.implicitTLS` when the settings say ``MailTLSMode/implicit``, else `.plain`.
    ///   - now: the clock; the system's by default.
    package init(settings: SMTPSettings, store: MailStore, faults: (any MailFaultSource)? = nil, client: NetworkAddress? = nil,
                 security: MailTransportSecurity? = nil, now: @escaping () -> Date = { Date() }) {
        self.settings = settings
        self.store = store
        self.faults = faults
        self.client = client
        self.now = now
        self.security = security ?? (settings.tls == .implicit ? .implicitTLS : .plain)
    }

    /// Whether the next input is a command line (not DATA's text, a BDAT chunk, an AUTH answer,
    /// the rest of an over-long line, or plain text before a TLS handshake).
    package var expectsCommand: Bool {
        switch phase {
        case .command, .refusedGreeting: true
        default: false
        }
    }

    /// Whether the session has closed (QUIT, a fault, the input ended).
    package var isClosed: Bool {
        if case .closed = phase { true } else { false }
    }

    /// The greeting: `220 host ESMTP`, or a fault's answer at ``MailFaultPoint/smtpGreeting``.
    package mutating func start() -> [SMTPAction] {
        guard case .idle = phase else { return [] }
        phase = .command
        let greeting = Self.line(220, "\(settings.hostName) ESMTP MockServer")
        switch consult(.smtpGreeting, subject: MailFaultSubject()) {
        case .proceed(let line):
            return [.send(line ?? greeting)]
        case .answer(let actions):
            if case .command = phase { phase = .refusedGreeting }
            return actions
        case .dropMidway:
            return drop(at: .smtpGreeting)
        }
    }

    /// Answers one unit from the front of `input` and consumes it; `[]` with nothing consumed when
    /// the unit has not all arrived. See the type's documentation for the loop around it.
    package mutating func read(_ input: inout ArraySlice<UInt8>) -> [SMTPAction] {
        switch phase {
        case .idle:
            return []
        case .closed, .awaitingTLS:
            input = input[input.endIndex...]
            return []
        case .command, .refusedGreeting:
            let limit = lineLimit(forCommandStartingWith: input)
            guard let (line, length) = Self.commandLine(in: input, limit: limit) else {
                guard input.count >= limit else { return [] }
                let head = input.prefix(limit - 2)
                discardLongLine(&input)
                return lineTooLong(head)
            }
            input = input.dropFirst(length)
            let actions = command(line)
            if case .awaitingTLS = phase { input = input[input.endIndex...] }
            return actions
        case .discardingLine:
            discardLongLine(&input)
            return []
        case .authenticating:
            guard let (line, length) = Self.commandLine(in: input, limit: settings.authenticationLineLimit) else {
                guard input.count >= settings.authenticationLineLimit else { return [] }
                discardLongLine(&input)
                return [.record(Array("MASKED".utf8)), .send(Self.line(500, "5.5.6 Authentication exchange line is too long"))]
            }
            input = input.dropFirst(length)
            return authenticationAnswer(line)
        case .data:
            return receiveData(&input)
        case .chunk:
            return receiveChunk(&input)
        }
    }

    /// Discards an over-long line up to and with its line end, or all of `input` when the end has
    /// not arrived (then the rest is discarded as it comes).
    mutating func discardLongLine(_ input: inout ArraySlice<UInt8>) {
        let refused = switch phase {
        case .refusedGreeting, .discardingLine(refusedGreeting: true): true
        default: false
        }
        if let end = input.firstIndex(of: Self.lf) {
            input = input[(end + 1)...]
            phase = refused ? .refusedGreeting : .command
        } else {
            input = input[input.endIndex...]
            phase = .discardingLine(refusedGreeting: refused)
        }
    }

    /// The first command line of `input` without its line end (LF, or CRLF), and the bytes it
    /// takes with its line end; nil when no line end has arrived, or the line is longer than the
    /// command-line limit (``read(_:)`` then answers `500 5.5.2`).
    package func commandLine(in input: ArraySlice<UInt8>) -> (line: ArraySlice<UInt8>, length: Int)? {
        Self.commandLine(in: input, limit: lineLimit(forCommandStartingWith: input))
    }

    /// The first line of `input` and its length with the line end, if it ends within `limit`
    /// bytes (the line end included).
    static func commandLine(in input: ArraySlice<UInt8>, limit: Int) -> (line: ArraySlice<UInt8>, length: Int)? {
        guard let end = input.prefix(limit).firstIndex(of: lf) else { return nil }
        let contentEnd = end > input.startIndex && input[end - 1] == cr ? end - 1 : end
        return (input[..<contentEnd], end + 1 - input.startIndex)
    }

    /// The longest line `input` may begin, its line end included: AUTH lines may be as long as
    /// an XOAUTH2 token needs, other commands 512 bytes.
    func lineLimit(forCommandStartingWith input: ArraySlice<UInt8>) -> Int {
        let auth = Array("AUTH ".utf8)
        guard input.count > settings.commandLineLimit - 2, input.count >= auth.count else { return settings.commandLineLimit }
        let isAuth = zip(input.prefix(auth.count), auth).allSatisfy { $0 & 0xDF == $1 & 0xDF }
        return isAuth ? settings.authenticationLineLimit : settings.commandLineLimit
    }

    /// TLS has started after a `.startTLS`: the session is under TLS and forgets what it knew of
    /// the client (EHLO, AUTH, the transaction), which must say EHLO again (RFC 3207 §4.2).
    package mutating func tlsStarted() {
        security = .startTLS
        hello = nil
        authenticatedUser = nil
        transaction = nil
        phase = .command
    }

    /// The peer finished sending; `input` holds what was never consumed (an unfinished line is
    /// not answered, an unfinished message not stored). Nothing more is sent.
    package mutating func inputEnded(_ input: inout ArraySlice<UInt8>) -> [SMTPAction] {
        phase = .closed
        transaction = nil
        return []
    }

    /// The bytes the framing looks for.
    static let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n"), dot = UInt8(ascii: ".")
}
