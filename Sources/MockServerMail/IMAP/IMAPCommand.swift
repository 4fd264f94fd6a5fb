/// One complete IMAP command as the reader framed it: its tag, its name and its arguments.
package struct IMAPCommand: Sendable, Hashable {
    /// The tag, as sent; the tagged answer repeats it.
    package var tag: String
    /// The command name, upper-cased (`UID` for `UID FETCH …`, whose first argument is `FETCH`).
    package var name: String
    /// The arguments after the name, in order.
    package var arguments: [IMAPValue]

    /// A command.
    package init(tag: String, name: String, arguments: [IMAPValue]) {
        self.tag = tag
        self.name = name
        self.arguments = arguments
    }
}
