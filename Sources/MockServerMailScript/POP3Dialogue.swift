import MockServerMail

/// A ``POP3Session`` as a connection's ``MailDialogue``.
struct POP3Dialogue: MailDialogue {
    var session: POP3Session

    mutating func start() -> [MailDialogueAction] { Self.actions(session.start()) }
    mutating func read(_ input: inout ArraySlice<UInt8>) -> [MailDialogueAction] { Self.actions(session.read(&input)) }
    mutating func tlsStarted() { session.tlsStarted() }
    mutating func inputEnded(_ input: inout ArraySlice<UInt8>) -> [MailDialogueAction] { Self.actions(session.inputEnded(&input)) }
    var expectsCommand: Bool { session.expectsCommand }

    func commandLine(in input: ArraySlice<UInt8>) -> (line: ArraySlice<UInt8>, length: Int)? {
        var rest = input
        guard let line = session.takeCommandLine(&rest) else { return nil }
        return (line, input.count - rest.count)
    }

    private static func actions(_ actions: [POP3Action]) -> [MailDialogueAction] {
        actions.map { action in
            switch action {
            case .send(let bytes): .send(bytes)
            case .record(let bytes): .record(bytes)
            case .startTLS: .startTLS
            case .close(let reason): .close(reason)
            }
        }
    }
}
