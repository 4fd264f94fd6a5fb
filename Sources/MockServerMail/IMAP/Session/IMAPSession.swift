import Foundation

/// The server side of one IMAP connection (IMAP4rev1, RFC 3501, and IMAP4rev2, RFC 9051, with the
/// extensions CAPABILITY lists) as a state value: bytes and events in, ``MailAction``s out. It
/// frames its own input with an ``IMAPCommandReader``, never touches a socket, and answers as
/// Dovecot does where the RFCs leave room.
///
/// ## Driving it from a connection
///
/// One session per connection, on the connection's loop thread:
///
/// 1. `var session = IMAPSession(settings:store:faults:)`; for implicit TLS finish the handshake first.
/// 2. `session.start()`: the greeting, or a fault's `* BYE` and close.
/// 3. With the bytes received and not consumed yet, `session.read(&input)`: it removes what it
///    answered from the front and returns the actions; call it again while it consumes or acts.
///    It answers one command a call.
/// 4. With a response script: while ``expectsCommand`` is true, ``takeCommandLine(_:)`` gives the
///    next whole command line; a script may answer it, or hand it back to `read`.
/// 5. On ``MailAction/startTLS``: run the handshake once everything before is sent, then call
///    ``tlsStarted()``.
/// 6. When the mailbox changes (``MailStore/observe(_:_:)``), ``mailboxChanged()``: an idling
///    session answers with untagged EXISTS, EXPUNGE and FETCH at once; any other waits for its
///    next command.
/// 7. ``MailAction/close(_:)`` ends it.
///
/// ## States
///
/// ``State`` follows RFC 9051 §3: not authenticated, authenticated, selected and logout, with an
/// AUTHENTICATE exchange, a STARTTLS handshake and IDLE as the states within them that read lines
/// rather than commands.
package struct IMAPSession {
    /// Where the session is in RFC 9051's dialogue, with what each state needs.
    package enum State {
        /// Before ``start()``.
        case connecting
        /// Not authenticated: LOGIN, AUTHENTICATE and STARTTLS (with CAPABILITY, NOOP, LOGOUT, ID).
        case notAuthenticated
        /// Inside AUTHENTICATE: the next line is the client's SASL response (or `*` to cancel).
        case authenticating(tag: String, MailAuthExchange)
        /// STARTTLS was answered OK: all input is discarded until ``tlsStarted()``.
        case startingTLS
        /// Authenticated as this address, no folder selected.
        case authenticated(MailboxAddress)
        /// A folder is selected.
        case selected(MailboxAddress, IMAPSelection)
        /// A folder is selected and a FETCH is being answered a part at a time: no command is
        /// read until it is all sent.
        case fetching(MailboxAddress, IMAPSelection, IMAPFetchJob)
        /// In IDLE (RFC 2177) under this tag, until the client's `DONE`.
        case idling(tag: String, MailboxAddress, IMAPSelection?)
        /// LOGOUT answered, or the connection closing.
        case loggedOut
    }

    /// The settings of the listener.
    package let settings: IMAPSettings
    /// The shared mailbox.
    package let store: MailStore
    /// Where faults come from; nil answers everything as the server.
    package let faults: (any MailFaultSource)?
    /// Where the session is.
    package internal(set) var state: State = .connecting
    /// Whether the connection is under TLS (implicit, or after STARTTLS).
    package internal(set) var isSecure: Bool
    /// The extensions the client turned on with ENABLE (`CONDSTORE`, `QRESYNC`, `UTF8=ACCEPT`,
    /// `IMAP4REV2`), upper-case.
    package internal(set) var enabled: Set<String> = []
    /// The command framer.
    var reader: IMAPCommandReader

    /// A session for one connection.
    package init(settings: IMAPSettings, store: MailStore, faults: (any MailFaultSource)? = nil) {
        self.settings = settings
        self.store = store
        self.faults = faults
        isSecure = settings.tls == .implicit
        reader = IMAPCommandReader(limits: settings.limits)
    }

    /// The address logged in, if any.
    package var address: MailboxAddress? {
        switch state {
        case .authenticated(let address), .selected(let address, _), .fetching(let address, _, _), .idling(_, let address, _): address
        default: nil
        }
    }

    /// Whether the client enabled UTF-8 strings and names (UTF8=ACCEPT, or IMAP4rev2).
    var utf8: Bool { enabled.contains("UTF8=ACCEPT") || enabled.contains("IMAP4REV2") }
    /// Whether the client enabled IMAP4rev2 semantics (ESEARCH answers, no `\Recent`).
    var revision2: Bool { enabled.contains("IMAP4REV2") }
    /// Whether CONDSTORE is on (enabled, or QRESYNC enabled, or a command used it).
    var condStore: Bool { enabled.contains("CONDSTORE") || enabled.contains("QRESYNC") }

    // MARK: Starting

    /// The greeting, with the capabilities (as Dovecot sends them), or a fault's answer.
    package mutating func start() -> [MailAction] {
        state = .notAuthenticated
        switch faults?.decide(.imapGreeting, subject: MailFaultSubject()) {
        case .reply(_, let text)?:
            state = .loggedOut
            return [.send(Array("* BYE \(text)\r\n".utf8)), .close("greeting fault")]
        case .drop?, .dropMidway?:
            state = .loggedOut
            return [.close("greeting fault: dropped")]
        case nil:
            return [.send(Array("* OK [CAPABILITY \(capabilities.joined(separator: " "))] MockServer IMAP ready.\r\n".utf8))]
        }
    }

    /// TLS began after STARTTLS: the capabilities may change, and nothing sent before counts.
    package mutating func tlsStarted() {
        isSecure = true
        reader = IMAPCommandReader(limits: settings.limits)
        if case .startingTLS = state { state = .notAuthenticated }
    }

    // MARK: Reading

    /// Whether the next input is a command (not a SASL response, IDLE's DONE, or a literal).
    package var expectsCommand: Bool {
        switch state {
        case .notAuthenticated, .authenticated, .selected: reader.isBetweenCommands
        default: false
        }
    }

    /// Cuts the next whole command line (without its line end) from `input`, for a response
    /// script to try; nil when none is complete.
    package func takeCommandLine(_ input: inout ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard expectsCommand, let newline = input.firstIndex(of: 0x0A) else { return nil }
        var line = input[..<newline]
        if line.last == 0x0D { line = line.dropLast() }
        input = input[(newline + 1)...]
        return line
    }

    /// The command line ``takeCommandLine(_:)`` gave was answered by a response script and removed
    /// from the input: the reader forgets what it had scanned of it.
    package mutating func commandLineTaken() {
        reader.inputTakenOutside()
    }

    /// Answers what starts `input`, removing what it consumed; `[]` without consuming waits for more.
    package mutating func read(_ input: inout ArraySlice<UInt8>) -> [MailAction] {
        switch state {
        case .connecting, .loggedOut:
            input.removeAll()
            return []
        case .startingTLS:
            input.removeAll()
            return []
        case .authenticating:
            guard let line = takeLine(&input, limit: settings.authenticationLineLimit) else { return [] }
            return answerSASL(line)
        case .idling:
            guard let line = takeLine(&input, limit: 1024) else { return [] }
            return endIdle(line)
        case .fetching(let address, let selection, let job):
            state = .selected(address, selection)
            var output = IMAPOutput(capacity: Self.fetchChunk + 4096)
            return continueFetch(job, output: &output)
        case .notAuthenticated, .authenticated, .selected:
            guard let result = reader.read(&input) else { return [] }
            switch result {
            case .continuation:
                return [.send(Array("+ Ready for literal data\r\n".utf8))]
            case .bad(let tag, let error):
                return [.send(Array("\(tag ?? "*") BAD \(error.text)\r\n".utf8))]
            case .close(_, let error):
                state = .loggedOut
                return [.send(Array("* BYE \(error.text)\r\n".utf8)), .close("literal past its limit")]
            case .command(let command):
                let actions = [.record(Self.recorded(command))] + answer(command)
                // Commands pipelined after STARTTLS came in plain text: never answered under TLS.
                if case .startingTLS = state { input.removeAll() }
                return actions
            }
        }
    }

    /// The peer finished sending: the session ends (nothing is lost: every change was made as
    /// its command was answered).
    package mutating func inputEnded(_ input: inout ArraySlice<UInt8>) -> [MailAction] {
        state = .loggedOut
        return []
    }

    /// One line of `input` (LF-ended, its CR and LF removed), bounded by `limit`: a longer one is
    /// taken whole as an empty line, which the caller refuses.
    private func takeLine(_ input: inout ArraySlice<UInt8>, limit: Int) -> ArraySlice<UInt8>? {
        guard let newline = input.prefix(limit).firstIndex(of: 0x0A) else {
            if input.count >= limit {
                input.removeAll()
                return [][...]
            }
            return nil
        }
        var line = input[..<newline]
        if line.last == 0x0D { line = line.dropLast() }
        input = input[(newline + 1)...]
        return line
    }

    // MARK: Answering

    /// Answers one command: its untagged data, the changes the client must hear of, its tagged status.
    mutating func answer(_ command: IMAPCommand) -> [MailAction] {
        if let fault = commandFault(command) { return fault }
        do {
            return try dispatch(command)
        } catch {
            switch error {
            case .bad(let text):
                return [.send(Array("\(command.tag) BAD \(text)\r\n".utf8))]
            case .no(let text):
                var output = IMAPOutput()
                if let ended = endIfGone(&output, expunges: Self.allowsExpunges(command)) { return ended }
                output.text("\(command.tag) NO \(text)\r\n")
                return [.send(output.bytes)]
            }
        }
    }

    /// Runs the command its name and the state call for.
    private mutating func dispatch(_ command: IMAPCommand) throws(IMAPCommandError) -> [MailAction] {
        var arguments = IMAPArguments(command.arguments, utf8: utf8)
        // A hidden capability's command (MOVE, IDLE, UNSELECT, SORT, ID, ENABLE, NAMESPACE) is unknown.
        if settings.hiddenCapabilities.contains(command.name) { throw .bad("Unknown command \(command.name).") }
        switch (command.name, state) {
        case ("CAPABILITY", _):
            try arguments.end()
            return ok(command, untagged: "* CAPABILITY \(capabilities.joined(separator: " "))\r\n", text: "Pre-login capabilities listed, post-login capabilities have more.")
        case ("NOOP", _), ("CHECK", .selected):
            try arguments.end()
            return ok(command, text: "\(command.name == "NOOP" ? "NOOP" : "Check") completed.")
        case ("LOGOUT", _):
            try arguments.end()
            state = .loggedOut
            return [.send(Array("* BYE Logging out\r\n\(command.tag) OK Logout completed.\r\n".utf8)), .close("LOGOUT")]
        case ("ID", _):
            return try id(command, &arguments)
        case ("STARTTLS", .notAuthenticated):
            return try startTLS(command, &arguments)
        case ("LOGIN", .notAuthenticated):
            return try login(command, &arguments)
        case ("AUTHENTICATE", .notAuthenticated):
            return try authenticate(command, &arguments)
        case ("STARTTLS", _), ("LOGIN", _), ("AUTHENTICATE", _):
            throw .bad("Already logged in.")
        case (_, .notAuthenticated):
            guard Self.knownCommands.contains(command.name) else { throw .bad("Unknown command \(command.name).") }
            throw .bad("Please login first.")
        case ("ENABLE", _):
            return try enable(command, &arguments)
        case ("NAMESPACE", _):
            try arguments.end()
            return ok(command, untagged: "* NAMESPACE ((\"\" \"/\")) NIL NIL\r\n", text: "Namespace completed.")
        case ("SELECT", _), ("EXAMINE", _):
            return try select(command, &arguments)
        case ("CREATE", _):
            return try create(command, &arguments)
        case ("DELETE", _):
            return try delete(command, &arguments)
        case ("RENAME", _):
            return try rename(command, &arguments)
        case ("SUBSCRIBE", _), ("UNSUBSCRIBE", _):
            return try subscribe(command, &arguments)
        case ("LIST", _), ("LSUB", _):
            return try list(command, &arguments)
        case ("STATUS", _):
            return try status(command, &arguments)
        case ("APPEND", _):
            return try append(command, &arguments)
        case ("IDLE", _) where settings.offers("IDLE"):
            try arguments.end()
            return idle(command)
        case ("UNSELECT", .selected) where settings.offers("UNSELECT"), ("CLOSE", .selected):
            try arguments.end()
            return close(command)
        case ("EXPUNGE", .selected):
            try arguments.end()
            return try expunge(command, uids: nil)
        case ("FETCH", .selected), ("STORE", .selected), ("COPY", .selected), ("MOVE", .selected), ("SEARCH", .selected), ("SORT", .selected):
            return try selectedCommand(command.name, command, &arguments, uid: false)
        case ("UID", .selected):
            let name = try arguments.keyword("UID command")
            if name == "EXPUNGE", settings.offers("UIDPLUS") {
                let set = try arguments.sequenceSet()
                try arguments.end()
                return try expunge(command, uids: set)
            }
            guard ["FETCH", "STORE", "COPY", "MOVE", "SEARCH", "SORT"].contains(name) else { throw .bad("Unknown UID command \(name).") }
            return try selectedCommand(name, command, &arguments, uid: true)
        default:
            guard Self.knownCommands.contains(command.name) else { throw .bad("Unknown command \(command.name).") }
            throw .bad("No mailbox selected.")
        }
    }

    /// How many bytes of a FETCH's answer are made before they are sent and the rest made after:
    /// a large FETCH holds one part of its answer at a time.
    package static let fetchChunk = 256 << 10

    /// The commands of the selected state and their UID forms.
    private mutating func selectedCommand(_ name: String, _ command: IMAPCommand, _ arguments: inout IMAPArguments, uid: Bool) throws(IMAPCommandError) -> [MailAction] {
        switch name {
        case "FETCH": return try fetch(command, &arguments, uid: uid)
        case "STORE": return try storeFlags(command, &arguments, uid: uid)
        case "COPY": return try copy(command, &arguments, uid: uid, move: false)
        case "MOVE" where settings.offers("MOVE"): return try copy(command, &arguments, uid: uid, move: true)
        case "SEARCH": return try search(command, &arguments, uid: uid)
        case "SORT" where settings.offers("SORT"): return try sort(command, &arguments, uid: uid)
        default: throw .bad("Unknown command \(name).")
        }
    }

    /// Every command name the server knows, in any state (an unknown one is answered as such).
    static let knownCommands: Set<String> = [
        "CAPABILITY", "NOOP", "LOGOUT", "ID", "STARTTLS", "LOGIN", "AUTHENTICATE", "ENABLE", "NAMESPACE", "SELECT", "EXAMINE",
        "CREATE", "DELETE", "RENAME", "SUBSCRIBE", "UNSUBSCRIBE", "LIST", "LSUB", "STATUS", "APPEND", "IDLE", "CHECK",
        "CLOSE", "UNSELECT", "EXPUNGE", "SEARCH", "FETCH", "STORE", "COPY", "MOVE", "UID", "SORT",
    ]

    /// Whether EXPUNGE responses may be sent while answering `command` (RFC 9051 §7.5.1: not
    /// during FETCH, STORE or SEARCH; their UID forms may).
    static func allowsExpunges(_ command: IMAPCommand) -> Bool {
        !["FETCH", "STORE", "SEARCH", "SORT"].contains(command.name)
    }

    /// `untagged`, the changes the client must hear of, then `tag OK text`.
    mutating func ok(_ command: IMAPCommand, untagged: String = "", code: String? = nil, text: String) -> [MailAction] {
        var output = IMAPOutput()
        output.text(untagged)
        return okAfter(command, &output, code: code, text: text)
    }

    /// The bytes in `output`, the changes the client must hear of, then `tag OK [code] text`.
    mutating func okAfter(_ command: IMAPCommand, _ output: inout IMAPOutput, code: String? = nil, text: String) -> [MailAction] {
        if let ended = endIfGone(&output, expunges: Self.allowsExpunges(command)) { return ended }
        output.text("\(command.tag) OK \(code.map { "[\($0)] " } ?? "")\(text)\r\n")
        return [.send(output.bytes)]
    }

    /// The capabilities as CAPABILITY lists them now (fewer before login, none hidden).
    package var capabilities: [String] {
        var list = ["IMAP4rev1", "IMAP4rev2", "SASL-IR", "LITERAL+", "ID", "ENABLE", "IDLE"]
        switch state {
        case .notAuthenticated, .connecting, .startingTLS, .authenticating:
            if settings.tls == .offered || settings.tls == .required, !isSecure { list.append("STARTTLS") }
            if settings.tls == .required, !isSecure {
                list.append("LOGINDISABLED")
            } else {
                list += settings.authenticationMechanisms.map { "AUTH=\($0.rawValue)" }
            }
        default:
            list += ["NAMESPACE", "UIDPLUS", "MOVE", "UNSELECT", "CHILDREN", "SPECIAL-USE", "LIST-EXTENDED", "LIST-STATUS",
                     "ESEARCH", "SEARCHRES", "SORT", "CONDSTORE", "QRESYNC", "UTF8=ACCEPT", "BINARY", "STATUS=SIZE",
                     "APPENDLIMIT=\(appendLimit)"]
        }
        return list.filter { settings.offers($0.uppercased()) && settings.offers($0.uppercased().split(separator: "=").first.map(String.init) ?? "") }
    }

    /// The largest message APPEND takes (RFC 7889 `APPENDLIMIT`): the reader's literal limit, or the
    /// store's byte limit when that is smaller.
    var appendLimit: UInt64 { min(settings.limits.literalSize, UInt64(store.byteLimit)) }

    /// What the transcript shows of a command: its tag, name and arguments, literals by size,
    /// LOGIN's password and AUTHENTICATE's initial response masked.
    static func recorded(_ command: IMAPCommand) -> [UInt8] {
        var output = IMAPOutput()
        output.text("\(command.tag) \(command.name)")
        for (index, value) in command.arguments.enumerated() {
            output.byte(0x20)
            if (command.name == "LOGIN" && index == 1) || (command.name == "AUTHENTICATE" && index == 1) {
                output.text("***")
            } else {
                record(value, to: &output)
            }
        }
        return output.bytes
    }

    /// One argument as the transcript shows it.
    private static func record(_ value: IMAPValue, to output: inout IMAPOutput) {
        switch value {
        case .atom(let text): output.text(text)
        case .number(let number): output.number(number)
        case .quoted(let bytes): output.string(bytes, utf8: true)
        case .literal(let bytes, let binary): output.text("\(binary ? "~" : ""){\(bytes.count) octets}")
        case .nil: output.text("NIL")
        case .list(let items):
            output.byte(0x28)
            for (index, item) in items.enumerated() {
                if index > 0 { output.byte(0x20) }
                record(item, to: &output)
            }
            output.byte(0x29)
        case .section(let name, let section, let partial):
            output.text(name + "[")
            for (index, item) in section.enumerated() {
                if index > 0 { output.byte(0x20) }
                record(item, to: &output)
            }
            output.text("]")
            if let partial { output.text("<\(partial.offset)\(partial.count.map { ".\($0)" } ?? "")>") }
        }
    }
}
