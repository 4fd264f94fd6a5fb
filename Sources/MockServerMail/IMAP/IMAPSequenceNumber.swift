/// One end of a range in an IMAP sequence set (RFC 9051 §9 `seq-number`): a message sequence
/// number or UID from 1 to 4294967295, or `*`, the largest number in use in the folder.
package enum IMAPSequenceNumber: Hashable, Sendable {
    /// A number the client wrote, 1…4294967295.
    case number(UInt32)
    /// `*`: the largest sequence number or UID in use, whatever it is when the command runs.
    case last

    /// The number this end stands for when the largest number in use is `largest`.
    package func resolved(largest: UInt32) -> UInt32 {
        switch self {
        case .number(let value): value
        case .last: largest
        }
    }
}
