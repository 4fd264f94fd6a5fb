import Foundation
import MockServerMail

/// A POP3 session driven as a connection driver would drive it, without a socket (the test
/// harness, not to be confused with the serving target's `POP3Dialogue`): bytes fed in
/// chunks, every action carried out (a TLS handshake is done at once), what was sent, recorded
/// and why it closed kept for the test to read.
struct POP3TestDialogue {
    /// How the dialogue hands lines to the session.
    enum Path {
        /// `read(_:)` alone.
        case read
        /// `takeCommandLine(_:)` then `answer(commandLine:)` while the session expects a
        /// command (as a driver with a response script does), `read(_:)` for the rest.
        case scripted
    }

    var session: POP3Session
    let path: Path
    /// Every byte the session sent.
    var sent: [UInt8] = []
    /// Every line the session recorded, as text.
    var recorded: [String] = []
    /// The reason of the `.close` action, once one came.
    var closed: String?
    /// How many TLS handshakes the session asked for.
    var handshakes = 0
    /// The input received and not consumed yet.
    var pending: ArraySlice<UInt8> = []

    /// A dialogue on `store`, greeting already received.
    init(store: MailStore = MailStore(), settings: POP3Settings = POP3Settings(), faults: (any MailFaultSource)? = nil,
         timestamp: String = POP3TestDialogue.timestamp, path: Path = .read) {
        session = POP3Session(settings: settings, store: store, faults: faults, timestamp: timestamp)
        self.path = path
        perform(session.start())
    }

    /// RFC 1939's APOP example timestamp.
    static let timestamp = "<1896.697170952@dbc.mtview.ca.us>"

    /// What the session sends as its greeting with ``timestamp``.
    static let greeting = "+OK MockServer ready. \(timestamp)\r\n"

    /// Feeds `text` (in chunks of `chunk` bytes, all at once by default) and returns what the
    /// session sent in answer.
    @discardableResult
    mutating func send(_ text: String, chunk: Int = .max) -> String {
        String(decoding: feed(Array(text.utf8), chunk: chunk), as: UTF8.self)
    }

    /// Feeds `bytes` in chunks and returns the bytes sent in answer.
    @discardableResult
    mutating func feed(_ bytes: [UInt8], chunk: Int = .max) -> [UInt8] {
        let before = sent.count
        var offset = 0
        while offset < bytes.count {
            let end = offset + min(chunk, bytes.count - offset)
            pending.append(contentsOf: bytes[offset..<end])
            offset = end
            drain()
        }
        return Array(sent[before...])
    }

    /// The peer stops sending: the connection closes once the session's last actions have run.
    mutating func end() {
        guard closed == nil else { return }
        perform(session.inputEnded(&pending))
        if closed == nil { closed = "peer closed" }
    }

    /// Calls the session while it consumes or acts, as the server does.
    private mutating func drain() {
        while closed == nil {
            let before = pending.count
            var actions: [MailAction]
            if path == .scripted, session.expectsCommand, let line = session.takeCommandLine(&pending) {
                actions = session.answer(commandLine: line)
            } else {
                actions = session.read(&pending)
            }
            perform(actions)
            if actions.isEmpty && pending.count == before { return }
        }
    }

    private mutating func perform(_ actions: [MailAction]) {
        for action in actions {
            guard closed == nil else { return }
            switch action {
            case .send(let bytes): sent += bytes
            case .record(let bytes): recorded.append(String(decoding: bytes, as: UTF8.self))
            case .close(let reason): closed = reason
            case .startTLS:
                // As a driver does: what is already received is plain text sent before the
                // handshake, given to the session (which drops it) before TLS starts.
                handshakes += 1
                _ = session.read(&pending)
                session.tlsStarted()
            }
        }
    }

    /// The whole text sent so far.
    var transcript: String { String(decoding: sent, as: UTF8.self) }
}

/// A store with `count` short messages for `address` (and one for another address, which the
/// session must never show).
func popStore(_ count: Int = 2, address: String = "dana@example.net", users: MailUsers = MailUsers()) -> MailStore {
    let store = MailStore(users: users, uidValidity: 0x65A1_F2C0)
    for number in stride(from: 1, through: count, by: 1) {
        let raw = Data("From: app@shop.example\r\nTo: \(address)\r\nSubject: Message \(number)\r\n\r\nBody \(number).\r\n".utf8)
        store.deliver(raw, envelope: MailEnvelope(sender: "app@shop.example", recipients: [address], origin: .seed(path: "\(number).eml")))
    }
    store.deliver(Data("Subject: Other\r\n\r\nNot yours.\r\n".utf8),
                  envelope: MailEnvelope(sender: "app@shop.example", recipients: ["lee@example.org"], origin: .seed(path: "other.eml")))
    return store
}
