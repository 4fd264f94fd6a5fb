/// The selected state's commands that change messages (STORE, COPY, MOVE, EXPUNGE, UID EXPUNGE),
/// CLOSE and UNSELECT, and IDLE.
extension IMAPSession {
    /// The selected folder's view and address; `BAD` when none is selected.
    func selected() throws(IMAPCommandError) -> (MailboxAddress, IMAPSelection) {
        guard case .selected(let address, let selection) = state else { throw .bad("No mailbox selected.") }
        return (address, selection)
    }

    /// CLOSE (expunging silently, when read-write) or UNSELECT.
    mutating func close(_ command: IMAPCommand) -> [MailAction] {
        guard case .selected(let address, let selection) = state else { return [] }
        if command.name == "CLOSE", !selection.readOnly { store.expunge(uids: nil, folder: selection.name, of: address.text) }
        state = .authenticated(address)
        return [.send(Array("\(command.tag) OK \(command.name == "CLOSE" ? "Close" : "Unselect") completed.\r\n".utf8))]
    }

    /// EXPUNGE, or UID EXPUNGE with the UIDs it may remove (RFC 4315).
    mutating func expunge(_ command: IMAPCommand, uids set: IMAPSequenceSet?) throws(IMAPCommandError) -> [MailAction] {
        let (address, selection) = try selected()
        if selection.readOnly { throw .no("[READ-ONLY] Mailbox is read-only.") }
        if let decision = fault(at: .imapChange) { return answer(decision, tag: command.tag, at: .imapChange) }
        let uids = set.map { Set(selection.positions($0, uid: true).map { selection.entries[$0].uid }) }
        store.expunge(uids: uids, folder: selection.name, of: address.text)
        return ok(command, text: "Expunge completed.")
    }

    /// STORE set [(UNCHANGEDSINCE n)] (+|-)FLAGS[.SILENT] flags.
    mutating func storeFlags(_ command: IMAPCommand, _ arguments: inout IMAPArguments, uid: Bool) throws(IMAPCommandError) -> [MailAction] {
        var (address, selection) = try selected()
        let set = try arguments.sequenceSet()
        try checkSequenceNumbers(set, uid: uid, selection: selection)
        var unchangedSince: UInt64?
        if case .list(let items)? = arguments.peek {
            _ = try arguments.next("store modifiers")
            var modifiers = IMAPArguments(items)
            guard try modifiers.keyword("store modifier") == "UNCHANGEDSINCE", settings.offers("CONDSTORE") else { throw .bad("Unknown STORE modifier.") }
            unchangedSince = try modifiers.number("mod-sequence", as: UInt64.self)
            try modifiers.end()
            enabled.insert("CONDSTORE")
        }
        let item = try arguments.keyword("store item")
        let mode: MailFlagChange.Mode
        switch item.hasPrefix("+") ? "+" : item.hasPrefix("-") ? "-" : "" {
        case "+": mode = .add
        case "-": mode = .remove
        default: mode = .replace
        }
        let bare = item.drop { $0 == "+" || $0 == "-" }
        guard bare == "FLAGS" || bare == "FLAGS.SILENT" else { throw .bad("Invalid STORE item \(item).") }
        let silent = bare.hasSuffix(".SILENT")
        var values: [IMAPValue] = []
        while !arguments.isAtEnd {
            let value = try arguments.next("flags")
            if case .list(let items) = value { values += items } else { values.append(value) }
        }
        let (flags, keywords) = try Self.flags(values)
        if selection.readOnly { throw .no("[READ-ONLY] Mailbox is read-only.") }
        if let decision = fault(at: .imapChange) { return answer(decision, tag: command.tag, at: .imapChange) }
        let positions = selection.positions(set, uid: uid)
        let result = store.store(MailFlagChange(mode, flags: flags, keywords: keywords), uids: positions.map { selection.entries[$0].uid },
                                 folder: selection.name, of: address.text, unchangedSince: unchangedSince)
        if result.keywordLimitReached { throw .no("[LIMIT] Too many keywords in the mailbox (limit \(MailFolder.keywordLimit)).") }
        var output = IMAPOutput()
        var changedByUID: [UInt32: MailboxEntry] = [:]
        for entry in result.changed { changedByUID[entry.uid] = entry }
        for position in positions {
            guard let entry = changedByUID[selection.entries[position].uid] else { continue }
            let changedHere = entry.modSeq != selection.entries[position].modSeq
            selection.entries[position] = entry
            if changedHere { selection.ownModSeqs.insert(entry.modSeq) }
            // .SILENT still reports the new MODSEQ under CONDSTORE (RFC 7162 §3.1.3).
            guard !silent || (unchangedSince != nil && changedHere) else { continue }
            output.text("* \(position + 1) FETCH (")
            if uid { output.text("UID \(entry.uid) ") }
            if !silent { output.text("FLAGS (\(flagList(entry, recent: selection.isRecent(position))))") }
            if condStore { output.text("\(silent ? "" : " ")MODSEQ (\(entry.modSeq))") }
            output.text(")\r\n")
        }
        state = .selected(address, selection)
        if !result.modified.isEmpty {
            let numbers = uid ? result.modified : result.modified.compactMap { selection.sequenceNumber(ofUID: $0) }
            return okAfter(command, &output, code: "MODIFIED \(Self.compressed(numbers.sorted()))", text: "Conditional store failed.")
        }
        return okAfter(command, &output, text: "Store completed.")
    }

    /// COPY or MOVE set mailbox, with UIDPLUS's COPYUID.
    mutating func copy(_ command: IMAPCommand, _ arguments: inout IMAPArguments, uid: Bool, move: Bool) throws(IMAPCommandError) -> [MailAction] {
        let (address, selection) = try selected()
        let set = try arguments.sequenceSet()
        try checkSequenceNumbers(set, uid: uid, selection: selection)
        let target = try arguments.mailbox()
        try arguments.end()
        if move, selection.readOnly { throw .no("[READ-ONLY] Mailbox is read-only.") }
        if let decision = fault(at: .imapChange) { return answer(decision, tag: command.tag, at: .imapChange) }
        let uids = selection.positions(set, uid: uid).map { selection.entries[$0].uid }
        let copied: (uidValidity: UInt32, pairs: [(source: UInt32, target: UInt32)])
        do {
            copied = try store.copy(uids: uids, from: selection.name, to: target.name, of: address.text, move: move)
        } catch .nonexistent(let name) {
            throw .no("[TRYCREATE] Mailbox doesn't exist: \(name)")
        } catch {
            throw .no("[\(error.code)] \(error.text)")
        }
        let code = settings.offers("UIDPLUS") && !copied.pairs.isEmpty
            ? "COPYUID \(copied.uidValidity) \(Self.compressed(copied.pairs.map(\.source))) \(Self.compressed(copied.pairs.map(\.target)))" : nil
        guard move else {
            return ok(command, code: code, text: copied.pairs.isEmpty ? "No messages found." : "Copy completed.")
        }
        // RFC 6851 §4.3: COPYUID comes untagged, before the expunges, and the tagged OK is plain.
        var output = IMAPOutput()
        if let code { output.text("* OK [\(code)] Moved UIDs.\r\n") }
        return okAfter(command, &output, text: copied.pairs.isEmpty ? "No messages found." : "Move completed.")
    }

    /// `BAD` for a message sequence number past the messages there (RFC 9051 §9: `*` aside, a
    /// number beyond the count is an error; UIDs are not).
    func checkSequenceNumbers(_ set: IMAPSequenceSet, uid: Bool, selection: IMAPSelection) throws(IMAPCommandError) {
        guard !uid, case .ranges = set else { return }
        // No message: every sequence number, `*` too, names none (Dovecot: `Invalid messageset`).
        if selection.count == 0 { throw .bad("Error in IMAP command: Invalid messageset: the mailbox is empty.") }
        if let highest = set.highest(largest: selection.count), highest > selection.count {
            throw .bad("Error in IMAP command: Invalid messageset: message \(highest) of \(selection.count).")
        }
    }

    /// IDLE (RFC 2177): `+ idling`, then changes as they happen, until `DONE`.
    mutating func idle(_ command: IMAPCommand) -> [MailAction] {
        guard let address else { return [] }
        var selection: IMAPSelection?
        if case .selected(_, let current) = state { selection = current }
        var output = IMAPOutput()
        output.text("+ idling\r\n")
        state = .idling(tag: command.tag, address, selection)
        if let ended = endIfGone(&output, expunges: true) { return ended }
        return [.send(output.bytes)]
    }

    /// The line that ends IDLE: `DONE` (any case), or anything else, answered `BAD`.
    mutating func endIdle(_ line: ArraySlice<UInt8>) -> [MailAction] {
        guard case .idling(let tag, let address, let selection) = state else { return [] }
        state = selection.map { .selected(address, $0) } ?? .authenticated(address)
        guard String(decoding: line, as: UTF8.self).uppercased() == "DONE" else {
            return [.record(Array(line)), .send(Array("\(tag) BAD Expected DONE.\r\n".utf8))]
        }
        var output = IMAPOutput()
        if let ended = endIfGone(&output, expunges: true) { return ended }
        output.text("\(tag) OK Idle completed.\r\n")
        return [.record(Array(line)), .send(output.bytes)]
    }
}
