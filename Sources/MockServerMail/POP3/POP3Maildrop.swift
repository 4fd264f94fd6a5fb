import Foundation

/// The maildrop of one POP3 session (RFC 1939 §3): a snapshot of the user's `INBOX`, taken at
/// login, that gives the session its message numbers (fixed for the whole session, whatever
/// arrives or goes meanwhile), their sizes and unique IDs, and the deletion marks that QUIT applies.
///
/// The snapshot holds the store's entries (each a reference to the shared transaction), not a
/// copy of any message's bytes.
package struct POP3Maildrop: Sendable {
    /// One message of the snapshot.
    package struct Message: Sendable {
        /// The store's entry: its UID and the transaction with the bytes.
        package let entry: MailboxEntry
        /// The size POP3 reports (LIST, STAT, RETR's `+OK N octets`): the bytes with each bare LF
        /// counted as CRLF, as they are sent, before byte-stuffing (Dovecot's "virtual size").
        package let size: Int
    }

    /// The address logged in as, whose `INBOX` this is.
    package let address: MailboxAddress
    /// The folder's UIDVALIDITY when the snapshot was taken (part of each ``uniqueID(of:)``).
    package let uidValidity: UInt32
    /// The messages, message number 1 first.
    package let messages: [Message]
    /// Which messages DELE marked, by index (message number - 1).
    package private(set) var deleted: [Bool]
    /// Which messages RETR sent whole, by index: QUIT flags them `\Seen` in the store, as
    /// Dovecot does (TOP does not count).
    package private(set) var retrieved: [Bool]
    /// How many messages are marked deleted.
    package private(set) var deletedCount = 0
    /// The bytes of the messages marked deleted.
    private var deletedSize = 0

    /// The snapshot of `address`'s `INBOX` in `store` as it is now (empty when it has none).
    package init(of address: MailboxAddress, in store: MailStore) {
        self.address = address
        let folder = store.folder(MailStore.inbox, of: address.text)
        uidValidity = folder?.uidValidity ?? 0
        messages = (folder?.entries ?? []).map { Message(entry: $0, size: POP3DotStuffing.transmittedSize(of: $0.transaction.raw)) }
        deleted = Array(repeating: false, count: messages.count)
        retrieved = deleted
    }

    /// How many messages are not marked deleted, and their bytes: what STAT answers.
    package var statistics: (count: Int, size: Int) {
        (messages.count - deletedCount, messages.reduce(0) { $0 + $1.size } - deletedSize)
    }

    /// The unique ID UIDL gives message `index`: the store's UID then the folder's UIDVALIDITY,
    /// each as eight hex digits (`0000000365a1f2c0`), as Dovecot's default
    /// `pop3_uidl_format = %08Xu%08Xv` spells it (in lower case, as Dovecot 2.3 sends it).
    ///
    /// Stable across sessions: the store never reuses a UID in a folder, and keeps the folder's
    /// UIDVALIDITY while it lives (through purges and resets); a restarted server makes a new
    /// UIDVALIDITY, so a client sees new IDs for a new store rather than old IDs naming other
    /// messages. The transaction ID is not used: it is random per delivery and per seed load,
    /// and a recipient's copies in several folders share it.
    package func uniqueID(of index: Int) -> String {
        Self.hex8(messages[index].entry.uid) + Self.hex8(uidValidity)
    }

    private static func hex8(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Marks message `index` deleted (DELE); it must not be marked already.
    package mutating func delete(_ index: Int) {
        guard !deleted[index] else { return }
        deleted[index] = true
        deletedCount += 1
        deletedSize += messages[index].size
    }

    /// Notes that RETR sent message `index`.
    package mutating func noteRetrieved(_ index: Int) {
        retrieved[index] = true
    }

    /// Unmarks every message (RSET).
    package mutating func undeleteAll() {
        guard deletedCount > 0 else { return }
        deleted = Array(repeating: false, count: messages.count)
        deletedCount = 0
        deletedSize = 0
    }

    /// The UIDs of the messages RETR sent and DELE did not mark, in message-number order: what
    /// QUIT flags `\Seen`.
    package var retrievedUIDs: [UInt32] {
        messages.indices.filter { retrieved[$0] && !deleted[$0] }.map { messages[$0].entry.uid }
    }

    /// The UIDs of the messages marked deleted, in message-number order: what QUIT removes.
    package var deletedUIDs: [UInt32] {
        messages.indices.filter { deleted[$0] }.map { messages[$0].entry.uid }
    }
}
