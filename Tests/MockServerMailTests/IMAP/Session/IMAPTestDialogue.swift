import Foundation
import MockServerMail

/// An ``IMAPSession`` driven as a connection drives it, for tests: input in (split as a test
/// chooses), everything sent out as text, closes and TLS starts noted.
struct IMAPTestDialogue {
    var session: IMAPSession
    var input: [UInt8] = []
    var closed: String?
    var tlsStarts = 0
    var recorded: [String] = []

    init(store: MailStore, settings: IMAPSettings = IMAPSettings(), faults: (any MailFaultSource)? = nil) {
        session = IMAPSession(settings: settings, store: store, faults: faults)
    }

    /// A dialogue logged in as `user`, its greeting and login answer read.
    static func loggedIn(_ store: MailStore, user: String = "alice@example.com", settings: IMAPSettings = IMAPSettings()) -> IMAPTestDialogue {
        var dialogue = IMAPTestDialogue(store: store, settings: settings)
        _ = dialogue.start()
        _ = dialogue.send("L LOGIN \(user) secret\r\n")
        return dialogue
    }

    /// The greeting.
    mutating func start() -> String { carry(session.start()) }

    /// Sends `text`, and returns everything the session answers until it waits for more.
    mutating func send(_ text: String) -> String { send(Array(text.utf8)) }

    mutating func send(_ bytes: [UInt8]) -> String {
        input += bytes
        var answered = ""
        while true {
            var slice = input[...]
            let actions = session.read(&slice)
            let consumed = input.count - slice.count
            input = Array(slice)
            answered += carry(actions)
            if actions.isEmpty && consumed == 0 { break }
        }
        return answered
    }

    /// The mailbox changed: what the session sends at once.
    mutating func changed() -> String { carry(session.mailboxChanged()) }

    private mutating func carry(_ actions: [MailAction]) -> String {
        var text = ""
        for action in actions {
            switch action {
            case .send(let bytes): text += String(decoding: bytes, as: UTF8.self)
            case .record(let bytes): recorded.append(String(decoding: bytes, as: UTF8.self))
            case .startTLS:
                tlsStarts += 1
                session.tlsStarted()
            case .close(let reason): closed = reason
            }
        }
        return text
    }
}

extension MailStore {
    /// A store whose `alice@example.com` INBOX holds `count` messages (the first seen), for tests.
    static func withInbox(_ count: Int, address: String = "alice@example.com") -> MailStore {
        let store = MailStore(uidValidity: 1000)
        for index in 1...max(count, 1) where count > 0 {
            let raw = "From: Bob <bob@example.com>\r\nTo: \(address)\r\nSubject: Message \(index)\r\n\r\nBody \(index)\r\n"
            store.deliver(Data(raw.utf8), envelope: MailEnvelope(sender: "bob@example.com", recipients: [address], origin: .seed(path: "test")))
        }
        if count > 0 { store.updateFlags(uid: 1, of: address) { $0.insert(.seen) } }
        _ = store.login(user: address, password: "x")
        return store
    }
}
