import Foundation

/// The server side of one POP3 connection (RFC 1939, with CAPA and response codes from RFC 2449,
/// STLS from RFC 2595 and AUTH from RFC 5034) as a state value: bytes and events in,
/// ``MailAction``s out. It frames its own input, never touches a socket, and answers as Dovecot's
/// POP3 server does where the RFCs leave room.
///
/// ## Driving it from a connection
///
/// One session per connection, on the connection's loop thread (it is a value, not shared):
///
/// 1. `var session = POP3Session(settings:store:faults:)`. For implicit TLS
///    (``MailTLSMode/implicit``) finish the handshake first.
/// 2. `session.start()`: the greeting (`+OK MockServer ready. <pid.clock@host>`), or a fault's
///    `-ERR` and close. Carry out the actions in order.
/// 3. With the bytes received and not consumed yet, `session.read(&input)`: it removes from the
///    front of `input` what it answered and returns the actions. Call it again while it
///    consumes or returns actions; `[]` with nothing consumed means it waits for more input. It
///    answers one line a call, so pipelined commands are answered in order, one call each.
/// 4. With a response script: while ``expectsCommand`` is true, ``takeCommandLine(_:)`` cuts
///    the next whole command line from `input` (nil when none is complete yet, or when it is
///    over-long: `read` answers that one). Try the script's patterns on it; if none answers, hand
///    it to ``answer(commandLine:)``. Either way, go on with step 3's loop. While
///    ``expectsCommand`` is false (inside an AUTH exchange, while TLS starts), use `read` only.
/// 5. On ``MailAction/startTLS``: everything received up to then is plain text sent before the
///    handshake and must never be answered. `read` drops it itself in the call that answered
///    STLS; after ``answer(commandLine:)`` answered it, call `read(&input)` once (it returns
///    `[]` and consumes all) or drop the buffer. Run the handshake once everything before is
///    sent, then call ``tlsStarted()``.
/// 6. When the peer stops sending, ``inputEnded(_:)``. A connection lost without QUIT deletes
///    nothing, so nothing else needs telling.
/// 7. ``MailAction/close(_:)`` ends it: close once everything before it is sent.
///
/// ``MailAction/record(_:)`` comes first for each line the session answers (secrets masked);
/// lines a script answers are the driver's to record.
///
/// ## States
///
/// ``State`` follows RFC 1939 §3: AUTHORIZATION (USER/PASS, APOP, AUTH, CAPA, STLS, QUIT),
/// TRANSACTION (STAT, LIST, RETR, TOP, UIDL, DELE, RSET, NOOP, CAPA, QUIT) on a snapshot of the
/// user's `INBOX` (``POP3Maildrop``), and UPDATE, reached by QUIT in TRANSACTION, where the
/// messages marked by DELE leave the store (and those RETR sent are flagged `\Seen`), then the
/// connection closes.
///
/// ## Faults
///
/// A ``MailFaultSource`` is asked at ``MailFaultPoint/pop3Greeting``, ``MailFaultPoint/pop3User``
/// (with the name given), ``MailFaultPoint/pop3Pass`` (PASS and APOP before the login is
/// checked; AUTH once its exchange has named the user and ended, its answer replacing the
/// exchange's result) and ``MailFaultPoint/pop3Retrieve`` (RETR and TOP, with the user logged in).
/// `.reply` answers `-ERR` with a response code chosen from the code (``error(code:text:at:)``);
/// `.drop` closes; `.dropMidway` at RETR or TOP sends the status line and half of the message,
/// then closes (elsewhere it is a drop).
package struct POP3Session {
    /// Where the session is in RFC 1939's dialogue, with what each step needs.
    package enum State {
        /// Before ``start()``: nothing sent yet.
        case connecting
        /// AUTHORIZATION: waiting for a login, with the name USER gave if it did.
        case authorization(user: String?)
        /// AUTHORIZATION, inside an AUTH exchange: the next line is the client's SASL response
        /// to the exchange's last challenge (or `*` to cancel).
        case authenticating(MailAuthExchange)
        /// STLS was answered `+OK`: all input is discarded until ``tlsStarted()``.
        case startingTLS
        /// TRANSACTION: logged in, on this maildrop.
        case transaction(POP3Maildrop)
        /// TRANSACTION, sending a message (RETR, TOP) a part per ``read(_:)`` call: no command is
        /// read until it is all sent.
        case retrieving(POP3Maildrop, POP3Transmission)
        /// UPDATE: QUIT applied the deletions; the connection is closing.
        case update
        /// Closed without UPDATE (QUIT before login, a fault's drop, the input ended).
        case closed
    }

    /// How many bytes of a message RETR or TOP sends a ``read(_:)`` call: a large message goes
    /// out a part at a time, so that a session holds a part of its stuffed form, not all of it.
    package static let transmissionChunk = 64 << 10

    /// The settings of the listener.
    package let settings: POP3Settings
    /// The shared mailbox: logins are checked, snapshots taken and deletions applied there.
    package let store: MailStore
    /// Where faults come from; nil answers every point as the server.
    package let faults: (any MailFaultSource)?
    /// The greeting's timestamp (`<pid.clock@host>`), which an APOP digest is made with.
    package let timestamp: String
    /// Where the session is.
    package internal(set) var state: State = .connecting
    /// Whether the connection is under TLS (implicit, or after STLS).
    package internal(set) var isSecure: Bool
    /// Whether the next input is the rest of an over-long line being skipped.
    var framing = Framing.lineStart

    /// How the session reads its input between lines.
    enum Framing {
        /// At the start of a line.
        case lineStart
        /// Inside a line that was too long, answered already: skipped up to its LF.
        case skippingLongLine
    }

    /// A session for one connection.
    ///
    /// - Parameters:
    ///   - settings: the listener's settings.
    ///   - store: the mailbox the session logs in to and reads.
    ///   - faults: asked at each fault point; nil for none.
    ///   - timestamp: the greeting's APOP timestamp; a new unique one by default
    ///     (``makeTimestamp(host:)``). Tests give RFC 1939's example.
    package init(settings: POP3Settings, store: MailStore, faults: (any MailFaultSource)? = nil, timestamp: String? = nil) {
        self.settings = settings
        self.store = store
        self.faults = faults
        self.timestamp = timestamp ?? Self.makeTimestamp(host: settings.hostName)
        isSecure = settings.tls == .implicit
    }

    /// A new APOP timestamp, `<pid.clock.random@host>` (RFC 1939 §7: a msg-id unique to this
    /// greeting): the process ID, the time in microseconds and 32 random bits, so two
    /// connections in the same microsecond still differ.
    package static func makeTimestamp(host: String) -> String {
        let microseconds = UInt64(max(0, Date().timeIntervalSince1970 * 1_000_000))
        let random = UInt32.random(in: .min ... .max)
        return "<\(ProcessInfo.processInfo.processIdentifier).\(microseconds).\(String(random, radix: 16))@\(host)>"
    }

    // MARK: Events

    /// Opens the session: the greeting, or what the ``MailFaultPoint/pop3Greeting`` fault says
    /// (`-ERR text` then close, or close at once).
    package mutating func start() -> [MailAction] {
        guard case .connecting = state else { return [] }
        switch faults?.decide(.pop3Greeting, subject: MailFaultSubject()) {
        case .reply(let code, let text)?:
            state = .closed
            return [Self.error(code: code, text: text, at: .pop3Greeting), .close("fault: -ERR at pop3.greeting")]
        case .drop?, .dropMidway?:
            state = .closed
            return [.close("fault: drop at pop3.greeting")]
        case nil:
            state = .authorization(user: nil)
            return [Self.ok("MockServer ready. \(timestamp)")]
        }
    }

    /// The TLS handshake asked for by ``MailAction/startTLS`` is done: back to AUTHORIZATION
    /// with nothing remembered from before it (RFC 2595 §4: a USER given in plain is forgotten).
    package mutating func tlsStarted() {
        guard case .startingTLS = state else { return }
        isSecure = true
        framing = .lineStart
        state = .authorization(user: nil)
    }

    /// The peer finished sending; `input` holds what was never consumed (a partial line, which
    /// is not answered). The session ends without UPDATE: nothing marked is deleted. Nothing is
    /// sent, so the driver closes the connection as the peer's doing.
    package mutating func inputEnded(_ input: inout ArraySlice<UInt8>) -> [MailAction] {
        input = input[input.endIndex...]
        if case .update = state { return [] }
        state = .closed
        return []
    }

    /// Whether the next line of input is a command (not a SASL response, not input swallowed
    /// while TLS starts or after the end, not while a message is being sent): when a response
    /// script may try its patterns on it.
    package var expectsCommand: Bool {
        guard case .lineStart = framing else { return false }
        switch state {
        case .authorization, .transaction: return true
        case .connecting, .authenticating, .startingTLS, .retrieving, .update, .closed: return false
        }
    }

    /// Answers one command line, cut by the caller (``takeCommandLine(_:)``), without its line
    /// terminator: records it (secrets masked) and returns the reply. Only while
    /// ``expectsCommand``; otherwise nothing happens.
    package mutating func answer(commandLine line: some Collection<UInt8>) -> [MailAction] {
        guard expectsCommand else { return [] }
        let command = POP3Command(line)
        var actions: [MailAction] = [.record(command.recorded)]
        switch state {
        case .authorization(let user):
            actions += answerAuthorization(command, user: user)
        case .transaction:
            actions += answerTransaction(command)
        default:
            break
        }
        return actions
    }

    // MARK: Replies

    /// `+OK text` (or a bare `+OK` for empty text) as one line.
    static func ok(_ text: String = "") -> MailAction {
        .send(Array((text.isEmpty ? "+OK\r\n" : "+OK \(text)\r\n").utf8))
    }

    /// `-ERR text` as one line.
    static func error(_ text: String) -> MailAction {
        .send(Array("-ERR \(text)\r\n".utf8))
    }

    /// A fault's `-ERR`: the text as given if it starts with a response code (`[IN-USE] …`),
    /// else with the RFC 2449/3206 code Dovecot would give for `code`: 4xx is temporary
    /// (`[SYS/TEMP]`), 5xx at a login is `[AUTH]`, other 5xx `[SYS/PERM]`; other codes add none.
    static func error(code: Int, text: String, at point: MailFaultPoint) -> MailAction {
        if text.hasPrefix("[") { return error(text) }
        switch code {
        case 400..<500: return error("[SYS/TEMP] \(text)")
        case 500..<600 where point == .pop3Pass: return error("[AUTH] \(text)")
        case 500..<600: return error("[SYS/PERM] \(text)")
        default: return error(text)
        }
    }

    /// Decodes bytes of a command's argument as UTF-8, any bad sequence as U+FFFD.
    static func text(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
