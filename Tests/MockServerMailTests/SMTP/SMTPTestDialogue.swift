import Foundation
@testable import MockServerMail
import MockServerCore

/// Drives an ``SMTPSession`` as a connection driver does: input appended in pieces of a given size,
/// `read` called while it consumes or acts, the actions collected (sent text, records, deliveries,
/// the close, a TLS request).
struct SMTPTestDialogue {
    var session: SMTPSession
    var buffer = ArraySlice<UInt8>()
    /// Every byte sent, as text.
    var output = ""
    var records: [String] = []
    var delivered: [MailTransaction] = []
    var closed: String?
    var startTLSRequested = false

    init(_ settings: SMTPSettings = SMTPSettings(hostName: "mx.test"), store: MailStore = MailStore(),
         faults: (any MailFaultSource)? = nil, client: NetworkAddress? = nil, security: MailTransportSecurity? = nil) {
        session = SMTPSession(settings: settings, store: store, faults: faults, client: client, security: security,
                              now: { Date(timeIntervalSince1970: 1_800_000_000) })
        run(session.start())
    }

    /// Sends `text` in pieces of `piece` bytes and returns what the session sent meanwhile.
    @discardableResult
    mutating func send(_ text: String, piece: Int = .max) -> String {
        send(Array(text.utf8), piece: piece)
    }

    @discardableResult
    mutating func send(_ bytes: [UInt8], piece: Int = .max) -> String {
        let before = output.endIndex
        var rest = bytes[...]
        repeat {
            let next = rest.prefix(piece)
            rest = rest.dropFirst(next.count)
            buffer.append(contentsOf: next)
            pump()
        } while !rest.isEmpty
        return String(output[before...])
    }

    /// Calls `read` while it consumes or acts.
    mutating func pump() {
        while closed == nil {
            let count = buffer.count
            let actions = session.read(&buffer)
            run(actions)
            if actions.isEmpty, buffer.count == count { return }
        }
    }

    mutating func run(_ actions: [SMTPAction]) {
        for action in actions {
            switch action {
            case .send(let bytes): output += String(decoding: bytes, as: UTF8.self)
            case .record(let bytes): records.append(String(decoding: bytes, as: UTF8.self))
            case .delivered(let transaction): delivered.append(transaction)
            case .close(let reason): closed = reason
            case .startTLS: startTLSRequested = true
            }
        }
    }

    /// The handshake a `.startTLS` asked for has succeeded.
    mutating func handshake() {
        startTLSRequested = false
        session.tlsStarted()
    }

    /// The reply codes in `text`, one per reply (multi-line replies once).
    static func codes(_ text: String) -> [Int] {
        var codes: [Int] = []
        for line in text.components(separatedBy: "\r\n") where line.count >= 4 && Array(line)[3] == " " {
            if let code = Int(line.prefix(3)) { codes.append(code) }
        }
        return codes
    }
}
