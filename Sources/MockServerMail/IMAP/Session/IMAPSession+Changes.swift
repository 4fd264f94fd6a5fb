/// Telling the client what changed in its selected folder since it last heard (RFC 9051 §7.5):
/// messages gone (EXPUNGE, or VANISHED once QRESYNC is on), messages come (EXISTS, RECENT), flags
/// changed by others (FETCH FLAGS), keywords new to the folder (FLAGS). Sent before a command's
/// tagged answer, and at once while idling.
extension IMAPSession {
    /// The mailbox changed (the store told the connection): an idling session answers at once
    /// with the changes; any other hears of them with its next command's answer.
    package mutating func mailboxChanged() -> [MailAction] {
        guard case .idling = state else { return [] }
        var output = IMAPOutput()
        if let ended = endIfGone(&output, expunges: true) { return ended }
        return output.bytes.isEmpty ? [] : [.send(output.bytes)]
    }

    /// Writes the changes the client must hear of; when its selected folder is gone (deleted, or a
    /// new UIDVALIDITY), the actions that end the session: the `* BYE` written, then the close.
    mutating func endIfGone(_ output: inout IMAPOutput, expunges: Bool) -> [MailAction]? {
        guard case .loggedOut = appendChanges(to: &output, expunges: expunges) else { return nil }
        return [.send(output.bytes), .close("selected mailbox gone")]
    }

    /// Writes the untagged responses that bring the client's view of its selected folder up to
    /// date, and updates the view. Without `expunges` (during FETCH, STORE, SEARCH), messages gone
    /// stay in the view until a later command may tell of them. Returns the state after: logged
    /// out when the folder's UIDVALIDITY changed or it was deleted (`* BYE` written).
    @discardableResult
    mutating func appendChanges(to output: inout IMAPOutput, expunges: Bool) -> State {
        let idling: String?
        var selection: IMAPSelection
        let address: MailboxAddress
        switch state {
        case .selected(let selected, let current):
            idling = nil
            address = selected
            selection = current
        case .idling(let tag, let selected, let current?):
            idling = tag
            address = selected
            selection = current
        default:
            return state
        }
        guard let folder = store.folder(selection.name, of: address.text) else {
            state = .loggedOut
            output.text("* BYE Mailbox was deleted or renamed.\r\n")
            return state
        }
        guard folder.uidValidity == selection.uidValidity else {
            state = .loggedOut
            output.text("* BYE [UIDVALIDITY \(folder.uidValidity)] Mailbox UIDVALIDITY changed, reconnect.\r\n")
            return state
        }
        if folder.highestModSeq != selection.knownModSeq || folder.nextUID != selection.uidNext || (expunges && selection.pendingExpunges) {
            update(&selection, to: folder, expunges: expunges, output: &output)
        }
        state = idling.map { .idling(tag: $0, address, selection) } ?? .selected(address, selection)
        return state
    }

    /// Brings `selection` to `folder`, writing what the client must be told.
    private func update(_ selection: inout IMAPSelection, to folder: MailFolder, expunges: Bool, output: inout IMAPOutput) {
        let old = selection.entries, new = folder.entries
        var kept: [MailboxEntry] = []
        kept.reserveCapacity(max(old.count, new.count))
        var gone: [(sequence: Int, uid: UInt32)] = []
        var changed: [Int] = []
        var newIndex = 0
        for (oldIndex, entry) in old.enumerated() {
            while newIndex < new.count, new[newIndex].uid < entry.uid { newIndex += 1 }
            if newIndex < new.count, new[newIndex].uid == entry.uid {
                let current = new[newIndex]
                if current.modSeq > selection.knownModSeq, !selection.ownModSeqs.contains(current.modSeq),
                   current.flags != entry.flags || current.keywords != entry.keywords {
                    changed.append(kept.count)
                }
                kept.append(current)
            } else if expunges {
                gone.append((oldIndex + 1, entry.uid))
            } else {
                kept.append(entry)
            }
        }
        let lastKnownUID = old.last?.uid ?? 0
        let arrivedFrom = folder.firstIndex(atOrAbove: lastKnownUID &+ 1)
        let arrived = lastKnownUID == 0 ? new.count : new.count - arrivedFrom
        if arrived > 0 { kept.append(contentsOf: new[(new.count - arrived)...]) }
        if !gone.isEmpty {
            if enabled.contains("QRESYNC") {
                output.text("* VANISHED \(Self.compressed(gone.map(\.uid)))\r\n")
            } else {
                // Highest first: each number is still right when the client reads it.
                for item in gone.reversed() { output.text("* \(item.sequence) EXPUNGE\r\n") }
            }
        }
        if folder.keywords != selection.keywords {
            output.text("* FLAGS (\(Self.systemFlags) \((["$Forwarded"] + folder.keywords).joined(separator: " ")))\r\n")
            selection.keywords = folder.keywords
        }
        selection.entries = kept
        for index in changed {
            output.text("* \(index + 1) FETCH (")
            if enabled.contains("QRESYNC") { output.text("UID \(kept[index].uid) ") }
            output.text("FLAGS (\(flagList(kept[index], recent: selection.isRecent(index))))")
            if condStore { output.text(" MODSEQ (\(kept[index].modSeq))") }
            output.text(")\r\n")
        }
        if arrived > 0 {
            output.text("* \(kept.count) EXISTS\r\n")
            if !revision2 {
                let recent = kept.count - (kept.firstIndex { $0.uid >= selection.recentFrom } ?? kept.count)
                output.text("* \(recent) RECENT\r\n")
            }
        }
        selection.ownModSeqs = []
        selection.knownModSeq = folder.highestModSeq
        selection.uidNext = folder.nextUID
        selection.pendingExpunges = !expunges && kept.count != new.count
    }
}
