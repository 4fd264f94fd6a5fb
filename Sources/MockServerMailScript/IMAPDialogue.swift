import MockServerMail

/// An ``IMAPSession`` as a connection's ``MailDialogue``: it registers with the store once the
/// session has logged in, so that a change to the mailbox wakes the connection (IDLE's EXISTS),
/// and lets go as the connection closes.
struct IMAPDialogue: MailDialogue {
    var session: IMAPSession
    /// Wakes the connection, from any thread.
    private var wake: (@Sendable () -> Void)?
    /// The registration with the store, once logged in.
    private var observation: MailStore.Observation?

    init(session: IMAPSession) {
        self.session = session
    }

    mutating func start() -> [MailAction] { session.start() }

    mutating func read(_ input: inout ArraySlice<UInt8>) -> [MailAction] {
        let actions = session.read(&input)
        if observation == nil, let address = session.address, let wake {
            observation = session.store.observe(address.text, wake)
        }
        return actions
    }

    mutating func tlsStarted() { session.tlsStarted() }
    mutating func inputEnded(_ input: inout ArraySlice<UInt8>) -> [MailAction] { session.inputEnded(&input) }
    var expectsCommand: Bool { session.expectsCommand }

    func commandLine(in input: ArraySlice<UInt8>) -> (line: ArraySlice<UInt8>, length: Int)? {
        var rest = input
        guard let line = session.takeCommandLine(&rest) else { return nil }
        return (line, input.count - rest.count)
    }

    mutating func commandLineTaken() { session.commandLineTaken() }
    mutating func attach(wake: @escaping @Sendable () -> Void) { self.wake = wake }
    mutating func woken() -> [MailAction] { session.mailboxChanged() }

    mutating func detach() {
        if let observation { session.store.stopObserving(observation) }
        observation = nil
    }
}
