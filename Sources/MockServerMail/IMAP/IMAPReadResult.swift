/// What an ``IMAPCommandReader`` gives for the bytes it consumed: one thing the server does.
package enum IMAPReadResult: Sendable, Hashable {
    /// A complete command.
    case command(IMAPCommand)
    /// A synchronizing literal was announced and accepted: send a continuation (`+ Ready`) now;
    /// the reader then reads its bytes. Given exactly once per literal.
    case continuation
    /// The command is malformed or past a limit: answer `tag BAD text` (`* BAD` when `tag` is
    /// nil) and read on; the rest of the command was, or will be, skipped.
    case bad(tag: String?, IMAPSyntaxError)
    /// A non-synchronizing literal past its limit (RFC 7888 §4): answer `* BYE` and close; the
    /// reader reads nothing more.
    case close(tag: String?, IMAPSyntaxError)
}
