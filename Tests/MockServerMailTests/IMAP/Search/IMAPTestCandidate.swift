import Foundation
import MockServerMail

/// A message offered to searches in tests: its numbers, flags and bytes, and how often its parsed
/// message was asked for (the raw fast path must not ask).
final class IMAPTestCandidate: IMAPSearchCandidate {
    let sequenceNumber: UInt32
    let uid: UInt32
    var flags: MailFlags
    var keywords: [String]
    let internalDate: Date
    var modSeq: UInt64
    var isRecent: Bool
    let raw: Data
    /// How many times ``message`` was read.
    private(set) var parses = 0

    var size: Int { raw.count }

    var message: MailMessage {
        parses += 1
        return MailMessage(raw)
    }

    init(_ sequenceNumber: UInt32, uid: UInt32? = nil, _ text: String, flags: MailFlags = [], keywords: [String] = [],
         internalDate: Date = Date(timeIntervalSince1970: 1_000_000_000), modSeq: UInt64 = 1, isRecent: Bool = false) {
        self.sequenceNumber = sequenceNumber
        self.uid = uid ?? sequenceNumber * 10
        self.flags = flags
        self.keywords = keywords
        self.internalDate = internalDate
        self.modSeq = modSeq
        self.isRecent = isRecent
        raw = Data(text.utf8)
    }
}
