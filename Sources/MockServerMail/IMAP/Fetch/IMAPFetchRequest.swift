/// What a FETCH (or UID FETCH) asks for after its sequence set: the data items, macros expanded,
/// and the RFC 7162 modifiers `(CHANGEDSINCE n [VANISHED])`. Read by ``parse(_:)``.
package struct IMAPFetchRequest: Sendable, Hashable {
    /// The data items, in the order asked, each once; `ALL`, `FAST` and `FULL` expanded
    /// (RFC 3501 §6.4.5); `MODSEQ` added when `CHANGEDSINCE` is given (RFC 7162 §3.2.4).
    package var attributes: [IMAPFetchAttribute]
    /// `CHANGEDSINCE`'s mod-sequence: only messages whose mod-sequence is greater are answered.
    package var changedSince: UInt64?
    /// `VANISHED` (UID FETCH only, with CHANGEDSINCE): expunged UIDs reported first (RFC 7162 §3.2.6).
    package var vanished: Bool

    /// A request.
    package init(attributes: [IMAPFetchAttribute], changedSince: UInt64? = nil, vanished: Bool = false) {
        self.attributes = attributes
        self.changedSince = changedSince
        self.vanished = vanished
    }

    /// Whether any item sets `\Seen`.
    package var setsSeen: Bool { attributes.contains { $0.setsSeen } }

    /// Whether any item needs the message's bytes or summary.
    package var needsMessage: Bool { attributes.contains { $0.needsMessage } }
}
