/// A message as one folder of one address holds it: the transaction (shared by every recipient),
/// with this folder's UID and this entry's own flags.
package struct MailboxEntry: Sendable {
    /// The folder's UID of the message (RFC 3501 §2.3.1.1): strictly increasing, never reused in
    /// the folder while its ``MailFolder/uidValidity`` holds (POP3's UIDL gives it too).
    package let uid: UInt32
    /// The entry's flags; a recipient reading a message marks only its own copy seen.
    package var flags: MailFlags
    /// The transaction, the same object in every recipient's folder.
    package let transaction: MailTransaction
}
