import MockServerMail

/// An ``SMTPSession`` as a connection's ``MailDialogue``: its actions as the driver's (a stored
/// message is the mailbox's news, not the connection's: its waits and the control API see it).
struct SMTPDialogue: MailDialogue {
    var session: SMTPSession

    mutating func start() -> [MailAction] { Self.actions(session.start()) }
    mutating func read(_ input: inout ArraySlice<UInt8>) -> [MailAction] { Self.actions(session.read(&input)) }
    mutating func tlsStarted() { session.tlsStarted() }
    mutating func inputEnded(_ input: inout ArraySlice<UInt8>) -> [MailAction] { Self.actions(session.inputEnded(&input)) }
    var expectsCommand: Bool { session.expectsCommand }
    func commandLine(in input: ArraySlice<UInt8>) -> (line: ArraySlice<UInt8>, length: Int)? { session.commandLine(in: input) }

    private static func actions(_ actions: [SMTPAction]) -> [MailAction] {
        actions.compactMap { action in
            switch action {
            case .send(let bytes): .send(bytes)
            case .record(let bytes): .record(bytes)
            case .startTLS: .startTLS
            case .close(let reason): .close(reason)
            case .delivered: nil
            }
        }
    }
}
