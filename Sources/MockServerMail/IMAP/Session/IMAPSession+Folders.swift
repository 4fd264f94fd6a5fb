import Foundation

/// The authenticated state's folder commands: SELECT and EXAMINE, CREATE, DELETE, RENAME,
/// SUBSCRIBE and UNSUBSCRIBE, and APPEND. LIST, LSUB and STATUS are in `+List`.
extension IMAPSession {
    /// The special-use attribute (RFC 6154) of a top-level folder by its name, as the contract says:
    /// `Sent`, `Drafts`, `Trash`, `Junk` or `Spam`, and `Archive`.
    package static func specialUse(of name: String) -> String? {
        guard !name.contains(MailStore.folderSeparator) else { return nil }
        switch name.lowercased() {
        case "sent": return "\\Sent"
        case "drafts": return "\\Drafts"
        case "trash": return "\\Trash"
        case "junk", "spam": return "\\Junk"
        case "archive": return "\\Archive"
        default: return nil
        }
    }

    /// The name as the client is shown it: modified UTF-7, or UTF-8 once enabled.
    func shownName(_ name: String) -> [UInt8] {
        guard !utf8, let checked = try? IMAPMailboxName(name) else { return Array(name.utf8) }
        return Array(checked.modifiedUTF7.utf8)
    }

    /// The system flags the server keeps, as FLAGS lists them.
    static let systemFlags = "\\Answered \\Flagged \\Deleted \\Seen \\Draft"

    /// SELECT or EXAMINE mailbox [(CONDSTORE) | (QRESYNC (…))].
    mutating func select(_ command: IMAPCommand, _ arguments: inout IMAPArguments) throws(IMAPCommandError) -> [MailAction] {
        guard let address else { throw .bad("Please login first.") }
        let mailbox = try arguments.mailbox()
        var qresync: (uidValidity: UInt32, modSeq: UInt64, known: IMAPSequenceSet?)?
        if !arguments.isAtEnd {
            var parameters = IMAPArguments(try arguments.list("select parameters"))
            while !parameters.isAtEnd {
                switch try parameters.keyword("select parameter") {
                case "CONDSTORE" where settings.offers("CONDSTORE"):
                    enabled.insert("CONDSTORE")
                case "QRESYNC" where enabled.contains("QRESYNC"):
                    var values = IMAPArguments(try parameters.list("QRESYNC parameters"))
                    let validity: UInt32 = try values.number("UIDVALIDITY")
                    let modSeq: UInt64 = try values.number("mod-sequence", as: UInt64.self)
                    let known = values.isAtEnd ? nil : try values.sequenceSet()
                    qresync = (validity, modSeq, known)
                case let other:
                    throw .bad("Unknown select parameter \(other).")
                }
            }
        }
        try arguments.end()
        let readOnly = command.name == "EXAMINE"
        var output = IMAPOutput()
        if case .selected = state, revision2 || enabled.contains("QRESYNC") {
            output.text("* OK [CLOSED] Previous mailbox closed.\r\n")
        }
        // A failed SELECT leaves no folder selected (RFC 9051 §6.3.2).
        state = .authenticated(address)
        if let decision = fault(at: .imapSelect) { return answer(decision, tag: command.tag, at: .imapSelect) }
        guard let (folder, recentFrom) = store.select(mailbox.name, of: address.text, readWrite: !readOnly) else {
            throw .no("[NONEXISTENT] Mailbox doesn't exist: \(mailbox.name)")
        }
        var selection = IMAPSelection(folder: folder, readOnly: readOnly, recentFrom: recentFrom)
        let keywords = (["$Forwarded"] + folder.keywords).joined(separator: " ")
        output.text("* FLAGS (\(Self.systemFlags) \(keywords))\r\n")
        output.text("* OK [PERMANENTFLAGS (\(readOnly ? "" : "\(Self.systemFlags) \(keywords) \\*"))] Flags permitted.\r\n")
        output.text("* \(selection.count) EXISTS\r\n")
        if !revision2 { output.text("* \(selection.entries.count - folder.firstIndex(atOrAbove: recentFrom)) RECENT\r\n") }
        if !revision2, let firstUnseen = selection.entries.firstIndex(where: { !$0.flags.contains(.seen) }) {
            output.text("* OK [UNSEEN \(firstUnseen + 1)] First unseen.\r\n")
        }
        output.text("* OK [UIDVALIDITY \(folder.uidValidity)] UIDs valid\r\n")
        output.text("* OK [UIDNEXT \(folder.nextUID)] Predicted next UID\r\n")
        if settings.offers("CONDSTORE") { output.text("* OK [HIGHESTMODSEQ \(folder.highestModSeq)] Highest\r\n") }
        if let qresync, qresync.uidValidity == folder.uidValidity {
            writeResync(since: qresync.modSeq, known: qresync.known, selection: selection, to: &output)
        }
        selection.ownModSeqs = []
        state = .selected(address, selection)
        output.text("\(command.tag) OK [\(readOnly ? "READ-ONLY" : "READ-WRITE")] \(readOnly ? "Examine" : "Select") completed.\r\n")
        return [.send(output.bytes)]
    }

    /// QRESYNC's catch-up on SELECT (RFC 7162 §3.2.5): the UIDs the client knew that are gone as
    /// `VANISHED (EARLIER)`, then the flags of what changed since its mod-sequence.
    private func writeResync(since modSeq: UInt64, known: IMAPSequenceSet?, selection: IMAPSelection, to output: inout IMAPOutput) {
        let vanished = selection.vanished(in: known)
        if !vanished.isEmpty { output.text("* VANISHED (EARLIER) \(Self.compressed(vanished))\r\n") }
        for (index, entry) in selection.entries.enumerated() where entry.modSeq > modSeq {
            output.text("* \(index + 1) FETCH (UID \(entry.uid) FLAGS (\(flagList(entry, recent: selection.isRecent(index)))) MODSEQ (\(entry.modSeq)))\r\n")
        }
    }

    /// UIDs (sorted) as a compact sequence set: `1:3,7,9:12`.
    static func compressed(_ numbers: [UInt32]) -> String {
        var parts: [String] = []
        var index = 0
        while index < numbers.count {
            var end = index
            while end + 1 < numbers.count, numbers[end + 1] == numbers[end] &+ 1 { end += 1 }
            parts.append(end == index ? "\(numbers[index])" : "\(numbers[index]):\(numbers[end])")
            index = end + 1
        }
        return parts.joined(separator: ",")
    }

    /// An entry's flags as FETCH shows them.
    func flagList(_ entry: MailboxEntry, recent: Bool) -> String {
        var names = entry.flags.imapNames + entry.keywords
        if recent, !revision2 { names.append("\\Recent") }
        return names.joined(separator: " ")
    }

    /// CREATE mailbox.
    mutating func create(_ command: IMAPCommand, _ arguments: inout IMAPArguments) throws(IMAPCommandError) -> [MailAction] {
        guard let address else { throw .bad("Please login first.") }
        let mailbox = try arguments.mailbox()
        if !arguments.isAtEnd { _ = try arguments.list("create parameters") }
        try arguments.end()
        do {
            try store.createFolder(mailbox.name, of: address.text)
        } catch {
            throw .no("[\(error.code)] \(error.text)")
        }
        return ok(command, text: "Create completed.")
    }

    /// DELETE mailbox.
    mutating func delete(_ command: IMAPCommand, _ arguments: inout IMAPArguments) throws(IMAPCommandError) -> [MailAction] {
        guard let address else { throw .bad("Please login first.") }
        let mailbox = try arguments.mailbox()
        try arguments.end()
        if case .selected(_, let selection) = state, selection.name == mailbox.name {
            // Deleting the selected folder closes it first, as Dovecot does.
            state = .authenticated(address)
        }
        do {
            try store.deleteFolder(mailbox.name, of: address.text)
        } catch {
            throw .no("[\(error.code)] \(error.text)")
        }
        return ok(command, text: "Delete completed.")
    }

    /// RENAME old new.
    mutating func rename(_ command: IMAPCommand, _ arguments: inout IMAPArguments) throws(IMAPCommandError) -> [MailAction] {
        guard let address else { throw .bad("Please login first.") }
        let old = try arguments.mailbox(), new = try arguments.mailbox()
        try arguments.end()
        do {
            try store.renameFolder(old.name, to: new.name, of: address.text)
        } catch {
            throw .no("[\(error.code)] \(error.text)")
        }
        // The selected folder, or one above it, renamed by this session: it stays selected under its
        // new name (INBOX stays INBOX: renaming it moves its messages out).
        if case .selected(let address, var selection) = state, old.name != MailStore.inbox,
           selection.name == old.name || selection.name.hasPrefix(old.name + String(MailStore.folderSeparator)) {
            selection.name = new.name + selection.name.dropFirst(old.name.count)
            state = .selected(address, selection)
        }
        return ok(command, text: "Rename completed.")
    }

    /// SUBSCRIBE or UNSUBSCRIBE mailbox.
    mutating func subscribe(_ command: IMAPCommand, _ arguments: inout IMAPArguments) throws(IMAPCommandError) -> [MailAction] {
        guard let address else { throw .bad("Please login first.") }
        let mailbox = try arguments.mailbox()
        try arguments.end()
        if command.name == "SUBSCRIBE" {
            store.subscribe(mailbox.name, of: address.text)
        } else {
            store.unsubscribe(mailbox.name, of: address.text)
        }
        return ok(command, text: "\(command.name == "SUBSCRIBE" ? "Subscribe" : "Unsubscribe") completed.")
    }

    /// APPEND mailbox [(flags)] [date-time] message (RFC 9051 §6.3.12), with UIDPLUS's APPENDUID.
    mutating func append(_ command: IMAPCommand, _ arguments: inout IMAPArguments) throws(IMAPCommandError) -> [MailAction] {
        guard let address else { throw .bad("Please login first.") }
        let mailbox = try arguments.mailbox()
        var flags: MailFlags = [], keywords: [String] = [], date: Date?
        if case .list(let items)? = arguments.peek {
            _ = try arguments.next("flags")
            (flags, keywords) = try Self.flags(items)
        }
        if case .quoted(let bytes)? = arguments.peek {
            _ = try arguments.next("date-time")
            guard let parsed = IMAPDateTime.parse(String(decoding: bytes, as: UTF8.self)) else {
                throw .bad("Invalid date-time \"\(String(decoding: bytes, as: UTF8.self))\": expected dd-Mon-yyyy hh:mm:ss +zzzz.")
            }
            date = parsed
        }
        var message: [UInt8]
        switch try arguments.next("message literal") {
        case .literal(let bytes, _):
            message = bytes
        case .atom(let name) where name.uppercased() == "UTF8" && settings.offers("UTF8=ACCEPT"):
            // RFC 6855 §4: `UTF8 (~{n}…)`, a message whose header may hold UTF-8.
            guard case .list(let items) = try arguments.next("UTF8 message"), items.count == 1, case .literal(let bytes, _) = items[0] else {
                throw .bad("Invalid UTF8 message: expected (~{n} …).")
            }
            message = bytes
        default:
            throw .bad("Invalid message: expected a literal.")
        }
        try arguments.end()
        guard !message.isEmpty else { throw .no("Can't save a zero byte message.") }
        if let decision = fault(at: .imapAppend) { return answer(decision, tag: command.tag, at: .imapAppend) }
        let appended: (uidValidity: UInt32, uid: UInt32)
        do {
            appended = try store.append(Data(message), to: mailbox.name, of: address.text, flags: flags, keywords: keywords, date: date)
        } catch .nonexistent(let name) {
            throw .no("[TRYCREATE] Mailbox doesn't exist: \(name)")
        } catch {
            throw .no("[\(error.code)] \(error.text)")
        }
        return ok(command, code: settings.offers("UIDPLUS") ? "APPENDUID \(appended.uidValidity) \(appended.uid)" : nil, text: "Append completed.")
    }

    /// System flags and keywords from a flag list; `\Recent` and unknown system flags are `BAD`.
    static func flags(_ items: [IMAPValue]) throws(IMAPCommandError) -> (MailFlags, [String]) {
        var flags: MailFlags = [], keywords: [String] = []
        for item in items {
            guard case .atom(let name) = item else { throw .bad("Invalid flag: expected an atom.") }
            switch name.lowercased() {
            case "\\seen": flags.insert(.seen)
            case "\\answered": flags.insert(.answered)
            case "\\flagged": flags.insert(.flagged)
            case "\\deleted": flags.insert(.deleted)
            case "\\draft": flags.insert(.draft)
            case "$forwarded": flags.insert(.passed)
            default:
                guard !name.hasPrefix("\\"), name.utf8.allSatisfy({ IMAPOutput.isAStringChar($0) && $0 != 0x5D }) else {
                    throw .bad("Invalid flag \(name).")
                }
                keywords.append(name)
            }
        }
        return (flags, keywords)
    }
}
