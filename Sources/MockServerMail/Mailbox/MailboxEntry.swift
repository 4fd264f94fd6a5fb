import Foundation

/// A message as one folder of one address holds it: the transaction (shared by every recipient),
/// with this folder's UID and this entry's own flags, keywords, modification sequence and date.
package struct MailboxEntry: Sendable {
    /// The folder's UID of the message (RFC 3501 §2.3.1.1): strictly increasing, never reused in
    /// the folder while its ``MailFolder/uidValidity`` holds (POP3's UIDL gives it too).
    package let uid: UInt32
    /// The entry's flags; a recipient reading a message marks only its own copy seen.
    package var flags: MailFlags
    /// The entry's keywords (IMAP flags that are not system flags: `$Junk`, `work`), sorted, each once.
    package var keywords: [String]
    /// The folder's modification sequence when the entry last changed (RFC 7162 `MODSEQ`).
    package var modSeq: UInt64
    /// The entry's INTERNALDATE: when it arrived, or APPEND's date; a copy keeps the original's.
    package let internalDate: Date
    /// The transaction, the same object in every recipient's folder.
    package let transaction: MailTransaction

    package init(uid: UInt32, flags: MailFlags, keywords: [String] = [], modSeq: UInt64 = 1, internalDate: Date? = nil, transaction: MailTransaction) {
        self.uid = uid
        self.flags = flags
        self.keywords = keywords
        self.modSeq = modSeq
        self.internalDate = internalDate ?? transaction.time
        self.transaction = transaction
    }
}
