/// What one connection of a line protocol said, as a recording proxy saw it: the upstream's
/// greeting, then each client line with the upstream's reply to it.
struct RecordedDialogue: Sendable, Equatable {
    /// One client line and what the upstream sent after it, until the next line.
    struct Exchange: Sendable, Equatable {
        /// The line without its CR LF.
        var line: String
        /// The reply's bytes (empty when the upstream said nothing).
        var reply: [UInt8]
        /// How long after the line the reply began (recorded with `--keep-timing`).
        var delay: Duration?
        /// Whether the upstream closed the connection after this reply.
        var closedAfter = false
    }

    /// What the upstream sent before the client's first line.
    var greeting: [UInt8] = []
    /// How long after the connection the greeting began.
    var greetingDelay: Duration?
    /// Whether the upstream closed right after the greeting (before any line).
    var closedAfterGreeting = false
    var exchanges: [Exchange] = []
}
