import MockServerCore

/// One mail connection's server side as its driver sees it (SMTP's and POP3's sessions): a state
/// value that reads the bytes received and not yet consumed, framing them itself (command lines,
/// DATA's lines, BDAT's chunks, SASL answers), and gives actions out. It never sees a socket.
package protocol MailDialogue {
    /// What to do as the connection opens: the greeting, or a fault at the greeting.
    mutating func start() -> [MailDialogueAction]
    /// What answers the start of `input`: the dialogue removes from the front what it consumed;
    /// `[]` without consuming waits for more. Called again while it consumes or acts.
    mutating func read(_ input: inout ArraySlice<UInt8>) -> [MailDialogueAction]
    /// TLS began after ``MailDialogueAction/startTLS`` (the server's side of the handshake follows
    /// the reply that said so): the session forgets what RFC 3207 and RFC 2595 say it must.
    mutating func tlsStarted()
    /// The peer finished sending; `input` holds what was never consumed.
    mutating func inputEnded(_ input: inout ArraySlice<UInt8>) -> [MailDialogueAction]
}

extension MailDialogue {
    package mutating func inputEnded(_ input: inout ArraySlice<UInt8>) -> [MailDialogueAction] { [] }
}
