import Foundation

/// What a search needs to know of the selected folder besides its messages: what `*` stands
/// for, the saved result `$`, and the server's time zone. The session makes one per command and
/// asks ``matches(_:_:)`` of each candidate message.
package struct IMAPSearchContext: Sendable {
    /// The number of messages in the session's view: `*` in a sequence set.
    package var messageCount: UInt32
    /// The largest UID in the folder: `*` in a UID set.
    package var largestUID: UInt32
    /// The UIDs of the result saved with `SEARCH RETURN (SAVE)` (RFC 5182), which `$` stands for.
    package var saved: [UInt32] {
        didSet { savedSet = Set(saved) }
    }
    /// The zone whose days BEFORE, ON and SINCE compare INTERNALDATE in (RFC 9051 §6.4.4).
    package var timeZone: TimeZone
    /// ``saved``, for look-ups.
    private var savedSet: Set<UInt32>

    /// A context for a folder of `messageCount` messages whose largest UID is `largestUID`.
    package init(messageCount: UInt32, largestUID: UInt32, saved: [UInt32] = [], timeZone: TimeZone = .current) {
        self.messageCount = messageCount
        self.largestUID = largestUID
        self.saved = saved
        self.timeZone = timeZone
        savedSet = Set(saved)
    }

    /// Whether `candidate` satisfies `key`. Each criterion is tested at most once (an `OR` stops at
    /// its first true key, a list at its first false one, cheap criteria first); the raw bytes
    /// answer text criteria when they need no decoding, and the candidate's parsed message is asked
    /// for only when they do.
    package func matches(_ key: IMAPSearchKey, _ candidate: some IMAPSearchCandidate) -> Bool {
        var evaluation = IMAPSearchEvaluation(candidate: candidate, context: self)
        return evaluation.matches(key)
    }

    /// Whether `uid` is in the saved result.
    func isSaved(_ uid: UInt32) -> Bool {
        savedSet.contains(uid)
    }
}
