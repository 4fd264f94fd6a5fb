import Foundation

/// One folder of one address (`INBOX`, `Archive/2026`): its entries in UID order, and the UID and
/// modification-sequence state IMAP and POP3 need.
package struct MailFolder: Sendable {
    /// The folder's name: `INBOX`, or a path of names joined by ``MailStore/folderSeparator``.
    package internal(set) var name: String
    /// The folder's UIDVALIDITY (RFC 3501 §2.3.1.1): set when the folder is made, kept while the
    /// store lives (through purges and resets), different in every folder of the store; changed
    /// only on demand (``MailStore/changeUIDValidity(folder:of:)``), with every UID renumbered.
    package internal(set) var uidValidity: UInt32
    /// The UID the next message will get.
    package internal(set) var nextUID: UInt32 = 1
    /// The messages, oldest (lowest UID) first.
    package internal(set) var entries: [MailboxEntry] = []
    /// The highest modification sequence given in the folder (RFC 7162 `HIGHESTMODSEQ`): every
    /// change to an entry (arrival, flags, expunge) takes the next one.
    package internal(set) var highestModSeq: UInt64 = 1
    /// The keywords ever set in the folder, sorted: IMAP's `FLAGS` lists them.
    package internal(set) var keywords: [String] = []
    /// The first UID still `\Recent`: messages from here on arrived since a session last selected
    /// the folder read-write (RFC 3501 §2.3.2), which takes them.
    package internal(set) var firstRecentUID: UInt32 = 1

    package init(name: String, uidValidity: UInt32) {
        self.name = name
        self.uidValidity = uidValidity
    }

    /// Takes the next modification sequence for a change.
    mutating func nextModSeq() -> UInt64 {
        highestModSeq += 1
        return highestModSeq
    }

    /// Appends `transaction` with the next UID and modification sequence; returns the UID.
    @discardableResult
    mutating func append(_ transaction: MailTransaction, flags: MailFlags, keywords: [String] = [], internalDate: Date? = nil) -> UInt32 {
        let uid = nextUID
        entries.append(MailboxEntry(uid: uid, flags: flags, keywords: keywords, modSeq: nextModSeq(), internalDate: internalDate, transaction: transaction))
        nextUID += 1
        learn(keywords)
        return uid
    }

    /// The most keywords a folder knows (Dovecot's `mail_max_keyword_length` aside, its index holds
    /// about as many): past it a STORE or APPEND that adds a new one is refused, so no client makes
    /// every SELECT's FLAGS and every change's work grow without bound.
    package static let keywordLimit = 1_000

    /// Whether `new` can be learnt without passing ``keywordLimit``.
    func canLearn(_ new: [String]) -> Bool {
        guard !new.isEmpty else { return true }
        let known = Set(keywords.map { $0.lowercased() })
        return known.count + Set(new.map { $0.lowercased() }).subtracting(known).count <= Self.keywordLimit
    }

    /// Adds `keywords` to those the folder knows (in any case, once), sorted once.
    mutating func learn(_ new: [String]) {
        guard !new.isEmpty else { return }
        var known = Set(keywords.map { $0.lowercased() })
        var added = false
        for keyword in new where known.insert(keyword.lowercased()).inserted {
            keywords.append(keyword)
            added = true
        }
        if added { keywords.sort() }
    }

    /// The entry of `uid`, found by binary search (UIDs only grow).
    package func index(of uid: UInt32) -> Int? {
        let low = firstIndex(atOrAbove: uid)
        return low < entries.count && entries[low].uid == uid ? low : nil
    }

    /// The index of the first entry whose UID is `uid` or more (`entries.count` when none).
    package func firstIndex(atOrAbove uid: UInt32) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].uid < uid { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// How many entries are `\Recent` (arrived since the folder was last selected read-write).
    package var recentCount: Int { entries.count - firstIndex(atOrAbove: firstRecentUID) }

    /// How many entries are not `\Seen`.
    package var unseenCount: Int { entries.reduce(0) { $0 + ($1.flags.contains(.seen) ? 0 : 1) } }

    /// The bytes of the folder's messages (STATUS `SIZE`, RFC 8438).
    package var byteCount: Int { entries.reduce(0) { $0 + $1.transaction.size } }
}
