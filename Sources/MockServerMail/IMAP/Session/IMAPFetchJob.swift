/// A FETCH being answered a part at a time: what was asked, the messages still to send, and what
/// happened so far. A large FETCH (`1:* BODY[]`) goes out in parts of about
/// ``IMAPSession/fetchChunk`` bytes, each made once the connection has sent the one before, so a
/// session holds one part of its answer, not all of it.
package struct IMAPFetchJob: Sendable {
    /// The command's tag.
    let tag: String
    /// The items asked for, UID first for UID FETCH.
    let request: IMAPFetchRequest
    /// The positions of the messages to answer, in order.
    let positions: [Int]
    /// The next of ``positions`` to answer.
    var next = 0
    /// Where a drop-midway fault says `* BYE` (an index into ``positions``), if one does.
    let cut: Int?
    /// Whether FLAGS is added to each message whose `\Seen` the FETCH set (FLAGS was not asked).
    let flagsAdded: Bool
    /// The first item that could not be answered (BINARY of an unknown encoding): the command ends NO.
    var failure: IMAPFetchFailure?
}
