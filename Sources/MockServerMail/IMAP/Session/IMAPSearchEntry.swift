import Foundation

/// One message of a selected folder as SEARCH and SORT see it.
struct IMAPSearchEntry: IMAPSearchCandidate {
    let entry: MailboxEntry
    let sequenceNumber: UInt32
    let isRecent: Bool

    init(selection: IMAPSelection, position: Int, recent: Bool) {
        entry = selection.entries[position]
        sequenceNumber = UInt32(position + 1)
        isRecent = recent
    }

    var uid: UInt32 { entry.uid }
    var flags: MailFlags { entry.flags }
    var keywords: [String] { entry.keywords }
    var internalDate: Date { entry.internalDate }
    var size: Int { entry.transaction.size }
    var modSeq: UInt64 { entry.modSeq }
    var raw: Data { entry.transaction.raw }
    var message: MailMessage { entry.transaction.message }
}
