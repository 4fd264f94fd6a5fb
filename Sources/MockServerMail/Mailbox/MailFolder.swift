/// One folder of one address (`INBOX`, `Archive/2026`): its entries in UID order, and the UID
/// state IMAP and POP3 need.
package struct MailFolder: Sendable {
    /// The folder's name: `INBOX`, or a path of names joined by ``MailStore/folderSeparator``.
    package let name: String
    /// The folder's UIDVALIDITY (RFC 3501 §2.3.1.1): set when the folder is made, kept while the
    /// store lives (through purges and resets), different in every folder of the store.
    package let uidValidity: UInt32
    /// The UID the next message will get.
    package internal(set) var nextUID: UInt32 = 1
    /// The messages, oldest (lowest UID) first.
    package internal(set) var entries: [MailboxEntry] = []

    package init(name: String, uidValidity: UInt32) {
        self.name = name
        self.uidValidity = uidValidity
    }

    /// Appends `transaction` with the next UID.
    mutating func append(_ transaction: MailTransaction, flags: MailFlags) {
        entries.append(MailboxEntry(uid: nextUID, flags: flags, transaction: transaction))
        nextUID += 1
    }

    /// The entry of `uid`, found by binary search (UIDs only grow).
    func index(of uid: UInt32) -> Int? {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].uid < uid { low = middle + 1 } else { high = middle }
        }
        return low < entries.count && entries[low].uid == uid ? low : nil
    }
}
