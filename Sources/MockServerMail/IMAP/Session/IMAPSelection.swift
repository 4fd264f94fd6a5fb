/// A session's view of its selected folder (RFC 9051 §2.3.1.2): the messages as the client
/// knows them, numbered by position, which changes made elsewhere reach only at the points the
/// RFC allows (``IMAPSession`` tells of them as untagged EXISTS, EXPUNGE, VANISHED and FETCH).
package struct IMAPSelection: Sendable {
    /// The folder's name in the store (changed when this session renames it or a folder above it).
    package internal(set) var name: String
    /// EXAMINE, or a folder another session renamed away: nothing is changed through it.
    package let readOnly: Bool
    /// The UIDVALIDITY the client was given.
    package let uidValidity: UInt32
    /// The messages as the client knows them: sequence number `n` is `entries[n - 1]`.
    package var entries: [MailboxEntry]
    /// The folder's HIGHESTMODSEQ when the view was last brought up to date.
    package var knownModSeq: UInt64
    /// The folder's next UID then.
    package var uidNext: UInt32
    /// The keywords the client was told of in `FLAGS`.
    package var keywords: [String]
    /// Messages with this UID or above are `\Recent` to this session.
    package let recentFrom: UInt32
    /// Modification sequences of the session's own STOREs, already answered: not told again.
    package var ownModSeqs: Set<UInt64> = []
    /// Whether messages gone from the folder are still in the view, not told yet (they went
    /// while a FETCH, STORE or SEARCH was answered).
    package var pendingExpunges = false
    /// The UIDs saved by `SEARCH RETURN (SAVE)` (RFC 5182), for `$`.
    package var saved: [UInt32] = []

    /// A view of `folder` as it is now.
    package init(folder: MailFolder, readOnly: Bool, recentFrom: UInt32) {
        name = folder.name
        self.readOnly = readOnly
        uidValidity = folder.uidValidity
        entries = folder.entries
        knownModSeq = folder.highestModSeq
        uidNext = folder.nextUID
        keywords = folder.keywords
        self.recentFrom = recentFrom
    }

    /// The number of messages.
    package var count: UInt32 { UInt32(entries.count) }

    /// The largest UID, or 0 when empty (what `*` is in a UID set).
    package var largestUID: UInt32 { entries.last?.uid ?? 0 }

    /// The sequence number of `uid`, by binary search.
    package func sequenceNumber(ofUID uid: UInt32) -> UInt32? {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].uid < uid { low = middle + 1 } else { high = middle }
        }
        return low < entries.count && entries[low].uid == uid ? UInt32(low + 1) : nil
    }

    /// The positions (0-based) of the messages a set names: by sequence number, or with `uid` by
    /// UID (UIDs not there skipped, `*` the largest UID, a set past it still naming the last).
    package func positions(_ set: IMAPSequenceSet, uid: Bool) -> [Int] {
        if uid {
            let ranges: [ClosedRange<UInt32>]
            if case .saved = set {
                ranges = saved.map { $0...$0 }
            } else {
                ranges = set.resolved(largest: largestUID) ?? []
            }
            var positions: [Int] = []
            for range in ranges {
                var low = 0, high = entries.count
                while low < high {
                    let middle = (low + high) / 2
                    if entries[middle].uid < range.lowerBound { low = middle + 1 } else { high = middle }
                }
                while low < entries.count, entries[low].uid <= range.upperBound {
                    positions.append(low)
                    low += 1
                }
            }
            return positions
        }
        if case .saved = set { return saved.compactMap { sequenceNumber(ofUID: $0).map { Int($0) - 1 } } }
        return set.numbers(upTo: count).map { Int($0) - 1 }
    }

    /// The most UIDs one VANISHED (EARLIER) lists.
    static let vanishedLimit = 100_000

    /// The UIDs below ``uidNext`` that the set names (all of them when nil) and that are not in the
    /// view: QRESYNC's `VANISHED (EARLIER)` (UIDs never given are among them, as RFC 7162 allows).
    /// `*` is the last UID given; UID 0 is never one. At most ``vanishedLimit``.
    package func vanished(in set: IMAPSequenceSet?) -> [UInt32] {
        guard uidNext > 1 else { return [] }
        let last = uidNext - 1
        let ranges = set.map { $0.resolved(largest: max(largestUID, last)) ?? [] } ?? [1...last]
        var gone: [UInt32] = []
        var position = 0
        for range in ranges {
            let low = max(range.lowerBound, 1), high = min(range.upperBound, last)
            guard low <= high else { continue }
            while position < entries.count, entries[position].uid < low { position += 1 }
            var uid = low
            while uid <= high, gone.count < Self.vanishedLimit {
                if position < entries.count, entries[position].uid == uid {
                    position += 1
                } else {
                    gone.append(uid)
                }
                if uid == high { break }
                uid += 1
            }
        }
        return gone
    }

    /// Whether the entry at `position` is `\Recent` to this session.
    package func isRecent(_ position: Int) -> Bool { entries[position].uid >= recentFrom }
}
