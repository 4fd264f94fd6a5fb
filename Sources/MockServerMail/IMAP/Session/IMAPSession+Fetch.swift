import Foundation

/// FETCH and UID FETCH (RFC 9051 §6.4.5), with CONDSTORE's CHANGEDSINCE and QRESYNC's VANISHED.
extension IMAPSession {
    /// FETCH set items [(modifiers)].
    mutating func fetch(_ command: IMAPCommand, _ arguments: inout IMAPArguments, uid: Bool) throws(IMAPCommandError) -> [MailAction] {
        var (address, selection) = try selected()
        let set = try arguments.sequenceSet()
        try checkSequenceNumbers(set, uid: uid, selection: selection)
        var request: IMAPFetchRequest
        switch IMAPFetchRequest.parse(arguments.rest) {
        case .success(let parsed): request = parsed
        case .failure(let error): throw .bad(error.text)
        }
        if request.vanished, !(uid && enabled.contains("QRESYNC")) { throw .bad("VANISHED needs UID FETCH with QRESYNC enabled.") }
        if request.changedSince != nil || request.attributes.contains(.modSeq) {
            guard settings.offers("CONDSTORE") else { throw .bad("Unknown FETCH modifier.") }
            enabled.insert("CONDSTORE")
        }
        if uid, !request.attributes.contains(.uid) { request.attributes.insert(.uid, at: 0) }
        let decision = fault(at: .imapFetch)
        if let decision, decision != .dropMidway { return answer(decision, tag: command.tag, at: .imapFetch) }
        // Flags others changed are brought into the view first (expunges wait), so no message is
        // answered with flags the client then hears are stale.
        var output = IMAPOutput()
        if let ended = endIfGone(&output, expunges: false) { return ended }
        (address, selection) = try selected()
        var positions = selection.positions(set, uid: uid)
        if let since = request.changedSince { positions.removeAll { selection.entries[$0].modSeq <= since } }
        if request.vanished, request.changedSince != nil, case .ranges = set {
            let gone = selection.vanished(in: set)
            if !gone.isEmpty { output.text("* VANISHED (EARLIER) \(Self.compressed(gone))\r\n") }
        }
        // `\Seen` set by a body fetch is stored first, so the answer carries the new flags.
        var flagsAdded = false
        if request.setsSeen, !selection.readOnly {
            let unseen = positions.filter { !selection.entries[$0].flags.contains(.seen) }
            if !unseen.isEmpty {
                let changed = store.store(MailFlagChange(.add, flags: .seen), uids: unseen.map { selection.entries[$0].uid },
                                          folder: selection.name, of: address.text).changed
                var byUID: [UInt32: MailboxEntry] = [:]
                for entry in changed { byUID[entry.uid] = entry }
                for position in unseen {
                    guard let entry = byUID[selection.entries[position].uid] else { continue }
                    selection.entries[position] = entry
                    selection.ownModSeqs.insert(entry.modSeq)
                }
                flagsAdded = !request.attributes.contains(.flags)
            }
        }
        state = .selected(address, selection)
        let job = IMAPFetchJob(tag: command.tag, request: request, positions: positions,
                               cut: decision == .dropMidway ? positions.count / 2 : nil, flagsAdded: flagsAdded)
        return continueFetch(job, output: &output)
    }

    /// Answers the next part of a FETCH: messages until about ``fetchChunk`` bytes are written,
    /// then either the state to go on from (the driver calls ``read(_:)`` again once the part is
    /// sent) or the tagged answer.
    mutating func continueFetch(_ job: IMAPFetchJob, output: inout IMAPOutput) -> [MailAction] {
        guard case .selected(let address, let selection) = state else { return [] }
        var job = job
        while job.next < job.positions.count {
            if output.bytes.count >= Self.fetchChunk {
                state = .fetching(address, selection, job)
                return [.send(output.bytes)]
            }
            if let cut = job.cut, job.next == cut {
                state = .loggedOut
                output.text("* BYE Server shutting down.\r\n")
                return [.send(output.bytes), .close("imap.fetch fault: BYE mid-FETCH")]
            }
            let position = job.positions[job.next]
            job.next += 1
            let entry = selection.entries[position]
            output.text("* \(position + 1) FETCH (")
            var first = true
            // A \Seen this FETCH set is told before the items, after UID (as Dovecot does): a client
            // that reads the text before the first literal (Python's imaplib) sees it there.
            var flagsPending = job.flagsAdded && selection.ownModSeqs.contains(entry.modSeq)
            for attribute in job.request.attributes {
                if flagsPending, attribute != .uid {
                    if !first { output.byte(0x20) }
                    output.text("FLAGS (\(flagList(entry, recent: selection.isRecent(position))))")
                    first = false
                    flagsPending = false
                }
                let mark = output.bytes.count
                if !first { output.byte(0x20) }
                if let failed = write(attribute, entry: entry, recent: selection.isRecent(position), to: &output) {
                    // The items that can be sent are; the command ends NO (RFC 3516 §4.2).
                    output.bytes.removeSubrange(mark...)
                    job.failure = job.failure ?? failed
                    continue
                }
                first = false
            }
            if flagsPending {
                if !first { output.byte(0x20) }
                output.text("FLAGS (\(flagList(entry, recent: selection.isRecent(position))))")
            }
            output.text(")\r\n")
        }
        state = .selected(address, selection)
        if let failure = job.failure {
            if let ended = endIfGone(&output, expunges: false) { return ended }
            output.text("\(job.tag) NO \(failure.code.map { "[\($0)] " } ?? "")\(failure.text)\r\n")
            return [.send(output.bytes)]
        }
        if let ended = endIfGone(&output, expunges: false) { return ended }
        output.text("\(job.tag) OK Fetch completed.\r\n")
        return [.send(output.bytes)]
    }

    /// Writes one data item and its value; a failure (BINARY of an unknown encoding) is answered NO.
    private func write(_ attribute: IMAPFetchAttribute, entry: MailboxEntry, recent: Bool, to output: inout IMAPOutput) -> IMAPFetchFailure? {
        switch attribute {
        case .uid: output.text("UID \(entry.uid)")
        case .flags: output.text("FLAGS (\(flagList(entry, recent: recent)))")
        case .internalDate: output.text("INTERNALDATE \(IMAPDateTime.quoted(entry.internalDate))")
        case .modSeq: output.text("MODSEQ (\(entry.modSeq))")
        default:
            return IMAPMessageContent().write(attribute, raw: entry.transaction.raw, summary: entry.transaction.imapSummary, to: &output)
        }
        return nil
    }
}
