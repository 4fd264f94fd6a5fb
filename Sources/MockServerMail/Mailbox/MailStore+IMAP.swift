import Foundation
@_spi(HotPath) import MockServerCore

/// The changes IMAP makes to a mailbox: APPEND, COPY and MOVE, STORE, EXPUNGE by UID, the
/// `\Recent` messages a SELECT takes, and a UIDVALIDITY change on demand. Each is one step under
/// the store's lock, and every session of the address is told of it after.
extension MailStore {
    /// The outcome of a ``store(_:uids:folder:of:unchangedSince:)``.
    package struct FlagStoreResult: Sendable {
        /// The entries changed, with their new flags and modification sequences, in UID order.
        package var changed: [MailboxEntry] = []
        /// The UIDs not changed because they changed after `unchangedSince` (RFC 7162 `MODIFIED`).
        package var modified: [UInt32] = []
        /// Nothing was changed: the keywords would pass the folder's ``MailFolder/keywordLimit``.
        package var keywordLimitReached = false
    }

    /// A folder as a session selects it, with the UIDs from which its messages are `\Recent` to
    /// that session; read-write, the session takes them (later sessions see them not recent).
    package func select(_ name: String, of address: String, readWrite: Bool) -> (folder: MailFolder, recentFrom: UInt32)? {
        let name = Self.folderName(name), address = MailboxAddress(address)
        return state.withLock { state in
            guard let folder = state.mailboxes[address]?[name] else { return nil }
            if readWrite { state.mailboxes[address]![name]!.firstRecentUID = folder.nextUID }
            return (folder, folder.firstRecentUID)
        }
    }

    /// Appends a message to a folder of `address` (IMAP APPEND) with its flags, keywords and date,
    /// as a new transaction; resumes the waits it satisfies. Returns the folder's UIDVALIDITY and
    /// the message's UID (UIDPLUS's `APPENDUID`).
    ///
    /// - Throws: ``MailFolderError/nonexistent(_:)`` (answered `NO [TRYCREATE]`), or
    ///   ``MailFolderError/overQuota(size:limit:)`` for a message larger than ``byteLimit``.
    package func append(_ raw: Data, to name: String, of address: String, flags: MailFlags = [], keywords: [String] = [],
                        date: Date? = nil) throws(MailFolderError) -> (uidValidity: UInt32, uid: UInt32) {
        let name = Self.folderName(name), mailbox = MailboxAddress(address)
        guard raw.count <= byteLimit else { throw .overQuota(size: raw.count, limit: byteLimit) }
        let sender = MailMessage(raw).from.first?.address ?? ""
        let transaction = MailTransaction(envelope: MailEnvelope(sender: sender, recipients: [address], origin: .append(address: address, folder: name)),
                                          raw: raw, time: date ?? Date())
        let outcome: Result<(UInt32, UInt32, [CheckedContinuation<MailTransaction, any Error>]), MailFolderError> = changing([mailbox]) { state in
            guard state.mailboxes[mailbox]?[name] != nil else { return .failure(.nonexistent(name)) }
            guard state.mailboxes[mailbox]![name]!.canLearn(keywords) else { return .failure(.tooManyKeywords(limit: MailFolder.keywordLimit)) }
            state.transactions.append(transaction)
            state.byID[transaction.id] = transaction
            state.bytes += transaction.size
            state.placements[transaction.id] = [(mailbox, name)]
            let uid = state.mailboxes[mailbox]![name]!.append(transaction, flags: flags, keywords: MailFlagChange.unique(keywords), internalDate: date)
            let validity = state.mailboxes[mailbox]![name]!.uidValidity
            dropOverBytes(&state)
            return .success((validity, uid, state.satisfied(by: transaction)))
        }
        let (validity, uid, satisfied) = try outcome.get()
        for continuation in satisfied { continuation.resume(returning: transaction) }
        return (validity, uid)
    }

    /// Copies (or moves) the messages with `uids` from one folder of `address` to another: each
    /// copy gets the target's next UID and keeps its flags, keywords and date; a move then removes
    /// the originals. Returns the target's UIDVALIDITY and the (source, target) UID pairs in
    /// source order (UIDPLUS's `COPYUID`); UIDs no longer there are skipped.
    ///
    /// - Throws: ``MailFolderError/nonexistent(_:)`` for either folder (the target's answered
    ///   `NO [TRYCREATE]`).
    package func copy(uids: [UInt32], from source: String, to target: String, of address: String,
                      move: Bool = false) throws(MailFolderError) -> (uidValidity: UInt32, pairs: [(source: UInt32, target: UInt32)]) {
        let source = Self.folderName(source), target = Self.folderName(target), mailbox = MailboxAddress(address)
        let outcome: Result<(UInt32, [(source: UInt32, target: UInt32)]), MailFolderError> = changing([mailbox]) { state in
            guard let from = state.mailboxes[mailbox]?[source] else { return .failure(.nonexistent(source)) }
            guard state.mailboxes[mailbox]?[target] != nil else { return .failure(.nonexistent(target)) }
            var pairs: [(source: UInt32, target: UInt32)] = []
            for uid in uids.sorted() {
                guard let index = from.index(of: uid) else { continue }
                let entry = from.entries[index]
                let new = state.mailboxes[mailbox]![target]!.append(entry.transaction, flags: entry.flags, keywords: entry.keywords, internalDate: entry.internalDate)
                state.placements[entry.transaction.id, default: []].append((mailbox, target))
                pairs.append((uid, new))
            }
            // A move into the same folder moves too (RFC 6851 §3.1): the copies have new UIDs.
            if move, !pairs.isEmpty {
                let moved = Set(pairs.map(\.source))
                _ = state.removeEntries(of: mailbox, folder: source) { moved.contains($0.uid) }
            }
            return .success((state.mailboxes[mailbox]![target]!.uidValidity, pairs))
        }
        let (validity, pairs) = try outcome.get()
        return (validity, pairs)
    }

    /// Changes the flags of the messages with `uids` in a folder of `address` (IMAP STORE). An
    /// entry whose flags do not change keeps its modification sequence; with `unchangedSince`
    /// (CONDSTORE), an entry changed after it is left alone and listed in ``FlagStoreResult/modified``.
    package func store(_ change: MailFlagChange, uids: [UInt32], folder name: String, of address: String,
                       unchangedSince: UInt64? = nil) -> FlagStoreResult {
        let name = Self.folderName(name), mailbox = MailboxAddress(address)
        return changing([mailbox]) { state in
            var result = FlagStoreResult()
            guard state.mailboxes[mailbox]?[name] != nil else { return result }
            if change.mode != .remove {
                guard state.mailboxes[mailbox]![name]!.canLearn(change.keywords) else {
                    result.keywordLimitReached = true
                    return result
                }
                state.mailboxes[mailbox]![name]!.learn(change.keywords)
            }
            for uid in uids {
                guard let index = state.mailboxes[mailbox]![name]!.index(of: uid) else { continue }
                var entry = state.mailboxes[mailbox]![name]!.entries[index]
                if let unchangedSince, entry.modSeq > unchangedSince {
                    result.modified.append(uid)
                    continue
                }
                let before = (entry.flags, entry.keywords)
                change.apply(to: &entry.flags, keywords: &entry.keywords)
                if (entry.flags, entry.keywords) != before {
                    entry.modSeq = state.mailboxes[mailbox]![name]!.nextModSeq()
                    state.mailboxes[mailbox]![name]!.entries[index] = entry
                }
                result.changed.append(entry)
            }
            return result
        }
    }

    /// Removes the entries flagged `\Deleted` whose UIDs are in `uids` (UID EXPUNGE, RFC 4315), or
    /// all flagged ones when `uids` is nil. Returns the UIDs removed, in order.
    @discardableResult
    package func expunge(uids: Set<UInt32>?, folder name: String, of address: String) -> [UInt32] {
        guard let uids else { return expunge(folder: name, of: address) }
        let name = Self.folderName(name), mailbox = MailboxAddress(address)
        return changing([mailbox]) { state in
            state.removeEntries(of: mailbox, folder: name) { $0.flags.contains(.deleted) && uids.contains($0.uid) }
        }
    }

    /// Gives a folder of `address` a new UIDVALIDITY and renumbers its messages from UID 1, as a
    /// server that lost its index does: every client must forget what it cached of the folder.
    /// Returns the new UIDVALIDITY, or nil when there is no such folder.
    @discardableResult
    package func changeUIDValidity(folder name: String, of address: String) -> UInt32? {
        let name = Self.folderName(name), mailbox = MailboxAddress(address)
        return changing([mailbox]) { state in
            guard var folder = state.mailboxes[mailbox]?[name] else { return nil }
            var renumbered = MailFolder(name: name, uidValidity: state.nextUIDValidity)
            state.nextUIDValidity &+= 1
            renumbered.highestModSeq = folder.highestModSeq
            renumbered.keywords = folder.keywords
            for entry in folder.entries {
                renumbered.append(entry.transaction, flags: entry.flags, keywords: entry.keywords, internalDate: entry.internalDate)
            }
            renumbered.firstRecentUID = renumbered.nextUID
            folder = renumbered
            state.mailboxes[mailbox]![name] = folder
            return folder.uidValidity
        }
    }
}
