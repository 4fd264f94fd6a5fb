/// A piece of one command as received: a line of text (its line end removed) or the data of
/// the literal announced at the end of the line before.
enum IMAPCommandSegment: Sendable {
    /// A line's text, without its CRLF or LF.
    case text([UInt8])
    /// A literal's data, and whether it was a literal8 (`~{n}`).
    case literal([UInt8], binary: Bool)
}
