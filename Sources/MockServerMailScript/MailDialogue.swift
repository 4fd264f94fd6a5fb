import MockServerCore
import MockServerMail

/// One mail connection's server side as its driver sees it (SMTP's and POP3's sessions): a state
/// value that reads the bytes received and not yet consumed, framing them itself (command lines,
/// DATA's lines, BDAT's chunks, SASL answers), and gives actions out. It never sees a socket.
package protocol MailDialogue {
    /// What to do as the connection opens: the greeting, or a fault at the greeting.
    mutating func start() -> [MailAction]
    /// What answers the start of `input`: the dialogue removes from the front what it consumed;
    /// `[]` without consuming waits for more. Called again while it consumes or acts.
    mutating func read(_ input: inout ArraySlice<UInt8>) -> [MailAction]
    /// TLS began after ``MailAction/startTLS`` (the server's side of the handshake follows
    /// the reply that said so): the session forgets what RFC 3207 and RFC 2595 say it must.
    mutating func tlsStarted()
    /// The peer finished sending; `input` holds what was never consumed.
    mutating func inputEnded(_ input: inout ArraySlice<UInt8>) -> [MailAction]
    /// Whether the next input is a command line (not a message's data, a SASL answer, or plain
    /// text before a handshake): a response script's patterns may be tried on it.
    var expectsCommand: Bool { get }
    /// The command line at the start of `input`, without its line end, and how many bytes it takes
    /// with its end; nil when no whole line is there yet or it is over-long (``read(_:)`` answers that).
    func commandLine(in input: ArraySlice<UInt8>) -> (line: ArraySlice<UInt8>, length: Int)?
    /// The command line ``commandLine(in:)`` gave was answered by a response script and removed from
    /// the input, outside ``read(_:)``.
    mutating func commandLineTaken()
    /// Gives the dialogue a way to wake its connection from any thread (IMAP's, when its mailbox
    /// changes); called once, as the connection opens.
    mutating func attach(wake: @escaping @Sendable () -> Void)
    /// The connection was woken: what to send at once (an idling IMAP session's EXISTS).
    mutating func woken() -> [MailAction]
    /// The connection closed: the dialogue lets go of what it holds (a registration with the store).
    mutating func detach()
}

extension MailDialogue {
    package mutating func inputEnded(_ input: inout ArraySlice<UInt8>) -> [MailAction] { [] }
    /// Nothing: SMTP's and POP3's sessions look at their input afresh at each read.
    package mutating func commandLineTaken() {}
    /// Nothing: SMTP's and POP3's dialogues are never woken.
    package mutating func attach(wake: @escaping @Sendable () -> Void) {}
    package mutating func woken() -> [MailAction] { [] }
    package mutating func detach() {}
}
