import Dispatch
import Foundation
@_spi(HotPath) import MockServerCore

/// The one mailbox a mail server's protocols share (SMTP delivers, POP3 and IMAP read): messages per
/// address and folder, the users who may log in, the seed to reset to, waits, and a byte bound.
///
/// Safe from any thread: the server's loop and test tasks reach it at once; each call takes its
/// lock once. One SMTP transaction is one ``MailTransaction``, however many recipients it had; each
/// recipient's `INBOX` holds an entry for it (``MailboxEntry``) with its own UID and flags.
///
/// Addresses compare with their domain in any case and their local part as given
/// (``MailboxAddress``). Folder names are `INBOX` (any case) or paths joined by
/// ``folderSeparator`` (`Archive/2026`).
package final class MailStore: Sendable {
    /// The folder every address starts with, and that deliveries go to.
    package static let inbox = "INBOX"
    /// What joins a folder path's names (`Archive/2026`): `/`, as IMAP servers with a file-system
    /// layout (Dovecot's `LAYOUT=fs`) name it; a Maildir++ seed's `.Archive.2026` reads as `Archive/2026`.
    package static let folderSeparator: Character = "/"
    /// The default ``byteLimit``: 64 MiB of message bytes.
    package static let defaultByteLimit = 64 << 20

    struct Waiter {
        let id: UInt64
        let match: MailMatch
        let continuation: CheckedContinuation<MailTransaction, any Error>
    }

    struct State {
        /// Each address's folders by name.
        var mailboxes: [MailboxAddress: [String: MailFolder]] = [:]
        /// Each address's subscribed folder names (IMAP's LSUB).
        var subscriptions: [MailboxAddress: Set<String>] = [:]
        /// Who is told of changes to each address's folders (IMAP sessions), by registration ID.
        var observers: [MailboxAddress: [UInt64: @Sendable () -> Void]] = [:]
        var nextObserverID: UInt64 = 0
        /// The kept transactions, oldest first.
        var transactions: [MailTransaction] = []
        var byID: [String: MailTransaction] = [:]
        /// Where each transaction (by ID) has entries.
        var placements: [String: [(address: MailboxAddress, folder: String)]] = [:]
        /// The bytes of the kept transactions.
        var bytes = 0
        var dropped = 0
        var nextUIDValidity: UInt32
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0

        /// The folder `name` of `address`, made (with the next UIDVALIDITY) if it is not there.
        mutating func makeFolder(_ name: String, of address: MailboxAddress) {
            if mailboxes[address]?[name] != nil { return }
            mailboxes[address, default: [:]][name] = MailFolder(name: name, uidValidity: nextUIDValidity)
            nextUIDValidity &+= 1
        }

        /// Keeps `transaction` and gives it an entry in each of `places`.
        mutating func add(_ transaction: MailTransaction, to places: [(address: MailboxAddress, folder: String)], flags: MailFlags,
                          keywords: [String] = []) {
            transactions.append(transaction)
            byID[transaction.id] = transaction
            bytes += transaction.size
            for place in places {
                makeFolder(place.folder, of: place.address)
                mailboxes[place.address]![place.folder]!.append(transaction, flags: flags, keywords: keywords)
            }
            placements[transaction.id] = places
        }

        /// Forgets `transaction`'s entries everywhere, its ID and its bytes (the caller takes it
        /// out of ``transactions``).
        mutating func forget(_ transaction: MailTransaction) {
            for place in placements.removeValue(forKey: transaction.id) ?? [] {
                guard mailboxes[place.address]?[place.folder] != nil else { continue }
                mailboxes[place.address]![place.folder]!.entries.removeAll { $0.transaction === transaction }
                _ = mailboxes[place.address]![place.folder]!.nextModSeq()
            }
            byID[transaction.id] = nil
            bytes -= transaction.size
        }

        /// Removes the entries of `folder` of `address` for which `remove` holds; a transaction
        /// left with no entry anywhere is forgotten. Returns the UIDs removed.
        mutating func removeEntries(of address: MailboxAddress, folder: String, where remove: (MailboxEntry) -> Bool) -> [UInt32] {
            guard let entries = mailboxes[address]?[folder]?.entries else { return [] }
            let removed = entries.filter(remove)
            guard !removed.isEmpty else { return [] }
            mailboxes[address]![folder]!.entries.removeAll(where: remove)
            _ = mailboxes[address]![folder]!.nextModSeq()
            var orphans: [MailTransaction] = []
            for entry in removed {
                let id = entry.transaction.id
                placements[id]?.removeAll { $0.address == address && $0.folder == folder }
                if placements[id]?.isEmpty == true { orphans.append(entry.transaction) }
            }
            for orphan in orphans { forget(orphan) }
            if !orphans.isEmpty { transactions.removeAll { transaction in orphans.contains { $0 === transaction } } }
            return removed.map(\.uid)
        }

        /// Takes the waiters `transaction` satisfies.
        mutating func satisfied(by transaction: MailTransaction) -> [CheckedContinuation<MailTransaction, any Error>] {
            guard !waiters.isEmpty else { return [] }
            var satisfied: [CheckedContinuation<MailTransaction, any Error>] = []
            waiters.removeAll { waiter in
                guard waiter.match.predicate(transaction) else { return false }
                satisfied.append(waiter.continuation)
                return true
            }
            return satisfied
        }
    }

    /// Who may log in.
    package let users: MailUsers
    /// The seed ``reset()`` goes back to; nil for an empty store.
    package let seed: MailSeed?
    /// How many bytes of messages the store keeps; past it the oldest transactions are dropped
    /// (the newest is always kept, whatever its size), so no client decides the memory used.
    package let byteLimit: Int
    /// Called once a wait has found nothing and registered, outside the lock (tests deliver then,
    /// to show a wait satisfied by a later delivery).
    private let waitRegistered: (@Sendable (MailMatch) -> Void)?
    let state: Locked<State>

    /// A store with `seed`'s messages in place.
    ///
    /// - Parameters:
    ///   - users: who may log in; open (anyone, any password) by default.
    ///   - seed: the messages to start with and to ``reset()`` to.
    ///   - byteLimit: the bytes of messages kept; ``defaultByteLimit`` by default.
    ///   - uidValidity: the first folder's UIDVALIDITY, each new folder the next; the time in
    ///     seconds by default, so a restarted server's folders do not repeat a previous run's.
    ///   - waitRegistered: called once a ``wait(for:timeout:)`` has found nothing and waits.
    package init(users: MailUsers = MailUsers(), seed: MailSeed? = nil, byteLimit: Int = MailStore.defaultByteLimit,
                 uidValidity: UInt32 = UInt32(truncatingIfNeeded: Int(Date().timeIntervalSince1970)),
                 waitRegistered: (@Sendable (MailMatch) -> Void)? = nil) {
        self.waitRegistered = waitRegistered
        self.users = users
        self.seed = seed
        self.byteLimit = max(0, byteLimit)
        state = Locked(State(nextUIDValidity: max(1, uidValidity)))
        state.withLock { placeSeed(in: &$0) }
    }

    /// Puts the seed's folders and messages in place, as new transactions.
    private func placeSeed(in state: inout State) {
        guard let seed else { return }
        for (address, folders) in seed.folders {
            for folder in folders {
                state.makeFolder(folder, of: address)
                state.subscriptions[address, default: []].insert(folder)
            }
        }
        for message in seed.messages {
            let sender = MailMessage(message.raw).from.first?.address ?? ""
            let envelope = MailEnvelope(sender: sender, recipients: [message.address.text], origin: .seed(path: message.path))
            let transaction = MailTransaction(envelope: envelope, raw: message.raw, time: message.time)
            state.add(transaction, to: [(message.address, message.folder)], flags: message.flags, keywords: message.keywords)
        }
        dropOverBytes(&state)
    }

    /// `INBOX` for any case of it, else `name` as given.
    package static func folderName(_ name: String) -> String {
        name.caseInsensitiveCompare(inbox) == .orderedSame ? inbox : name
    }

    // MARK: Delivering and logging in

    /// Stores one transaction: `raw` in the `INBOX` of each of the envelope's recipients (a
    /// recipient named twice gets one entry), made on first mail. Resumes the waits it satisfies.
    @discardableResult
    package func deliver(_ raw: Data, envelope: MailEnvelope, time: Date = Date()) -> MailTransaction {
        let transaction = MailTransaction(envelope: envelope, raw: raw, time: time)
        var places: [(address: MailboxAddress, folder: String)] = []
        for recipient in envelope.recipients {
            let address = MailboxAddress(recipient)
            if !places.contains(where: { $0.address == address }) { places.append((address, Self.inbox)) }
        }
        let (satisfied, observers) = state.withLock { state in
            state.add(transaction, to: places, flags: [])
            dropOverBytes(&state)
            return (state.satisfied(by: transaction), state.observers(of: places.map(\.address)))
        }
        for continuation in satisfied { continuation.resume(returning: transaction) }
        for observer in observers { observer() }
        return transaction
    }

    /// Checks a login and password (XOAUTH2's token is the password); an accepted login's
    /// mailbox is made if it is not there (open users log in to any address).
    package func login(user: String, password: String) -> MailLoginResult {
        noteLogin(users.authenticate(user: user, password: password))
    }

    /// Checks a login whose proof is derived from the password (CRAM-MD5, APOP): `verify` gets
    /// the account's password; open, any proof is accepted.
    package func login(user: String, verify: (String) -> Bool) -> MailLoginResult {
        noteLogin(users.authenticate(user: user, verify: verify))
    }

    private func noteLogin(_ result: MailLoginResult) -> MailLoginResult {
        if case .accepted(let address) = result {
            state.withLock { state in
                state.makeFolder(Self.inbox, of: address)
                state.subscriptions[address, default: []].insert(Self.inbox)
            }
        }
        return result
    }

    // MARK: Reading

    /// The kept transactions, oldest first: one per SMTP transaction (and seed file), whatever
    /// its recipients, as Mailpit's API lists messages.
    package var transactions: [MailTransaction] { state.withLock { $0.transactions } }

    /// The transaction with this ID, if it is kept.
    package func transaction(id: String) -> MailTransaction? { state.withLock { $0.byID[id] } }

    /// The addresses that have a mailbox (mail came, a login was accepted, or the seed has one).
    package var addresses: [MailboxAddress] { state.withLock { $0.mailboxes.keys.sorted() } }

    /// The folders of `address`: `INBOX` first, then the others by name.
    package func folders(of address: String) -> [String] {
        let names = state.withLock { $0.mailboxes[MailboxAddress(address)].map { Array($0.keys) } ?? [] }
        return names.sorted { ($0 == Self.inbox ? 0 : 1, $0) < ($1 == Self.inbox ? 0 : 1, $1) }
    }

    /// A folder of `address` as it is now (its UIDVALIDITY, next UID and entries), or nil.
    package func folder(_ name: String = MailStore.inbox, of address: String) -> MailFolder? {
        state.withLock { $0.mailboxes[MailboxAddress(address)]?[Self.folderName(name)] }
    }

    /// The entries of a folder of `address`, oldest first; empty when there is none.
    package func messages(of address: String, folder: String = MailStore.inbox) -> [MailboxEntry] {
        self.folder(folder, of: address)?.entries ?? []
    }

    /// The bytes of messages kept, counted against ``byteLimit``.
    package var byteCount: Int { state.withLock { $0.bytes } }

    /// How many transactions were dropped to stay within ``byteLimit``.
    package var droppedCount: Int { state.withLock { $0.dropped } }

    // MARK: Changing

    /// Changes the flags of one entry; false when there is no such entry.
    @discardableResult
    package func updateFlags(uid: UInt32, folder: String = MailStore.inbox, of address: String, _ change: (inout MailFlags) -> Void) -> Bool {
        let address = MailboxAddress(address), folder = Self.folderName(folder)
        return changing([address]) { state in
            guard let index = state.mailboxes[address]?[folder]?.index(of: uid) else { return false }
            var flags = state.mailboxes[address]![folder]!.entries[index].flags
            change(&flags)
            guard flags != state.mailboxes[address]![folder]!.entries[index].flags else { return true }
            state.mailboxes[address]![folder]!.entries[index].flags = flags
            state.mailboxes[address]![folder]!.entries[index].modSeq = state.mailboxes[address]![folder]!.nextModSeq()
            return true
        }
    }

    /// Removes the entries flagged ``MailFlags/deleted`` from a folder of `address` (POP3's QUIT,
    /// IMAP's EXPUNGE); a transaction with no entry left anywhere goes from the store. Returns the
    /// UIDs removed, in order.
    @discardableResult
    package func expunge(folder: String = MailStore.inbox, of address: String) -> [UInt32] {
        let address = MailboxAddress(address), folder = Self.folderName(folder)
        return changing([address]) { $0.removeEntries(of: address, folder: folder) { $0.flags.contains(.deleted) } }
    }

    /// Removes the entries with these UIDs from a folder of `address`, whatever their flags
    /// (POP3's UPDATE: exactly the messages its DELE marked, not others that IMAP flagged
    /// `\Deleted`); a UID no longer there is skipped, and a transaction with no entry left
    /// anywhere goes from the store. Returns the UIDs removed, in order.
    @discardableResult
    package func remove(uids: some Sequence<UInt32>, folder: String = MailStore.inbox, of address: String) -> [UInt32] {
        let uids = Set(uids)
        guard !uids.isEmpty else { return [] }
        let address = MailboxAddress(address), folder = Self.folderName(folder)
        return changing([address]) { $0.removeEntries(of: address, folder: folder) { uids.contains($0.uid) } }
    }

    /// Removes every message; folders stay, with their UIDVALIDITY and next UID (UIDs are never
    /// reused). Waits keep waiting.
    package func purge() {
        changing(nil, Self.purgeAll)
    }

    /// Removes the transactions with these IDs, from every folder that holds them (Mailpit's
    /// `DELETE /api/v1/messages` with `IDs`). Returns the IDs that were kept and are now removed,
    /// in the order given; an unknown ID is skipped.
    @discardableResult
    package func remove(ids: [String]) -> [String] {
        changing(nil) { state in
            var removed: [String] = []
            var gone: Set<ObjectIdentifier> = []
            for id in ids {
                guard let transaction = state.byID[id] else { continue }
                state.forget(transaction)
                gone.insert(ObjectIdentifier(transaction))
                removed.append(id)
            }
            if !gone.isEmpty { state.transactions.removeAll { gone.contains(ObjectIdentifier($0)) } }
            return removed
        }
    }

    /// Removes the messages of `address`, in all its folders; a transaction also sent to others
    /// stays in their folders.
    package func purge(address: String) {
        let address = MailboxAddress(address)
        changing([address]) { state in
            for folder in state.mailboxes[address]?.keys.sorted() ?? [] {
                _ = state.removeEntries(of: address, folder: folder) { _ in true }
            }
        }
    }

    /// Back to the seed: every message removed, then the seed's put back (as new transactions,
    /// with new UIDs after the old ones: a reader that kept UIDs sees them expunged and new ones
    /// arrive, as IMAP allows without a new UIDVALIDITY).
    package func reset() {
        changing(nil) { state in
            Self.purgeAll(&state)
            placeSeed(in: &state)
        }
    }

    private static func purgeAll(_ state: inout State) {
        for (address, folders) in state.mailboxes {
            for name in folders.keys where !state.mailboxes[address]![name]!.entries.isEmpty {
                state.mailboxes[address]![name]!.entries.removeAll()
                _ = state.mailboxes[address]![name]!.nextModSeq()
            }
        }
        state.transactions.removeAll()
        state.byID.removeAll()
        state.placements.removeAll()
        state.bytes = 0
    }

    /// Drops the oldest transactions until the kept ones hold at most ``byteLimit`` bytes,
    /// keeping the newest.
    func dropOverBytes(_ state: inout State) {
        while state.bytes > byteLimit, state.transactions.count > 1 {
            state.dropped += 1
            state.forget(state.transactions.removeFirst())
        }
    }

    // MARK: Waiting

    /// Waits for the first transaction, already kept or still to come, that `match` matches, and
    /// returns it. No polling: a delivery resumes the waits it satisfies.
    ///
    /// - Parameters:
    ///   - match: the condition (``MailMatch/recipient(_:)``, ``MailMatch/subject(contains:)``, …).
    ///   - timeout: how long to wait.
    /// - Throws: ``MailWaitTimeout`` listing what did arrive, or `CancellationError`.
    @discardableResult
    package func wait(for match: MailMatch, timeout: Duration = .seconds(10)) async throws -> MailTransaction {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<MailTransaction, any Error>) in
                let found: Result<MailTransaction, any Error>? = state.withLock { state in
                    if let transaction = state.transactions.first(where: match.predicate) { return .success(transaction) }
                    // Cancelled before the waiter was registered: the handler found nothing to fail.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters.append(Waiter(id: id, match: match, continuation: continuation))
                    return nil
                }
                if let found {
                    continuation.resume(with: found)
                    return
                }
                waitRegistered?(match)
                let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) { [self] in
                    fail(waiter: id, with: MailWaitTimeout(timeout: timeout, expectation: match.description, arrived: transactions))
                }
            }
        } onCancel: {
            fail(waiter: id, with: CancellationError())
        }
    }

    /// How many waits are waiting (a test delivers once its wait has registered).
    package var waiterCount: Int { state.withLock { $0.waiters.count } }

    private func fail(waiter id: UInt64, with error: any Error) {
        let continuation = state.withLock { state -> CheckedContinuation<MailTransaction, any Error>? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index).continuation
        }
        continuation?.resume(throwing: error)
    }
}
