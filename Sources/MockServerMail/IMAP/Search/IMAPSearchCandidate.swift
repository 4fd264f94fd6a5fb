import Foundation

/// What one message of the selected folder offers a search: the session's view of a mailbox
/// entry. Searching reads the cheap properties first and ``raw`` before ``message``: a candidate
/// should parse its message only when asked (a lazily filled cache), since most criteria are
/// answered from flags, numbers or the raw bytes.
package protocol IMAPSearchCandidate {
    /// The message sequence number in the session's view (1-based).
    var sequenceNumber: UInt32 { get }
    /// The UID.
    var uid: UInt32 { get }
    /// The system flags.
    var flags: MailFlags { get }
    /// The keywords set on the message, as stored (`$Junk`, `NonJunk`).
    var keywords: [String] { get }
    /// INTERNALDATE: when the message arrived.
    var internalDate: Date { get }
    /// RFC822.SIZE, in octets.
    var size: Int { get }
    /// The message's mod-sequence (RFC 7162).
    var modSeq: UInt64 { get }
    /// Whether the message is `\Recent` in this session.
    var isRecent: Bool { get }
    /// The message's bytes.
    var raw: Data { get }
    /// The message parsed; asked only when its MIME structure is needed.
    var message: MailMessage { get }
}
