import MockServerMail

/// A ``POP3Session`` as a connection's ``MailDialogue``.
struct POP3Dialogue: MailDialogue {
    var session: POP3Session

    mutating func start() -> [MailAction] { session.start() }
    mutating func read(_ input: inout ArraySlice<UInt8>) -> [MailAction] { session.read(&input) }
    mutating func tlsStarted() { session.tlsStarted() }
    mutating func inputEnded(_ input: inout ArraySlice<UInt8>) -> [MailAction] { session.inputEnded(&input) }
    var expectsCommand: Bool { session.expectsCommand }

    func commandLine(in input: ArraySlice<UInt8>) -> (line: ArraySlice<UInt8>, length: Int)? {
        var rest = input
        guard let line = session.takeCommandLine(&rest) else { return nil }
        return (line, input.count - rest.count)
    }
}
