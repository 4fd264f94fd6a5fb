/// The bounds of what an IMAP command reader holds for one command; a command past one is
/// refused with `BAD` naming the limit (a non-synchronizing literal past its limit closes the
/// connection, RFC 7888 §4).
package struct IMAPReaderLimits: Sendable, Hashable {
    /// The longest command text, in octets with its line ends, literals' data not counted:
    /// 64 KiB, as Dovecot's `imap_max_line_length`.
    package var lineLength: Int
    /// The largest literal (`{n}`, `~{n}`) accepted: 64 MiB by default.
    package var literalSize: UInt64
    /// The largest non-synchronizing literal (`{n+}`): ``literalSize`` for LITERAL+ by default,
    /// 4,096 for a server that offers LITERAL- (RFC 7888 §3).
    package var nonSynchronizingLiteralSize: UInt64
    /// How deep parenthesized lists (and a section's brackets) may nest: 32 by default.
    package var nestingDepth: Int
    /// How many literals a command may hold: 1,000 by default (a MULTIAPPEND of as many
    /// messages).
    package var literalCount: Int
    /// How many values a command may hold, counting those inside lists: 10,000 by default.
    package var argumentCount: Int

    /// Limits; each default is named above.
    package init(lineLength: Int = 65_536, literalSize: UInt64 = 64 << 20,
                 nonSynchronizingLiteralSize: UInt64? = nil, nestingDepth: Int = 32,
                 argumentCount: Int = 10_000, literalCount: Int = 1_000) {
        self.lineLength = lineLength
        self.literalSize = literalSize
        self.nonSynchronizingLiteralSize = nonSynchronizingLiteralSize ?? literalSize
        self.nestingDepth = nestingDepth
        self.argumentCount = argumentCount
        self.literalCount = literalCount
    }
}
