/// How a command that cannot be carried out is answered: `BAD` (the client erred in syntax or
/// state) or `NO` (it cannot be done), with the text after the tag (a response code first when
/// there is one: `[TRYCREATE] Mailbox doesn't exist: Foo`).
package enum IMAPCommandError: Error, Sendable, Hashable {
    /// `tag BAD text`.
    case bad(String)
    /// `tag NO text`.
    case no(String)
}
