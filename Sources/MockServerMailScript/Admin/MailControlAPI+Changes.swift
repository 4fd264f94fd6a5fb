import MockServerCore
import MockServerMail
import MockServerScript

/// The dashboard's long poll on the mailbox (`GET /api/v1/mockserver/changes`): answered as soon as
/// the folders differ from what the caller last saw, whichever protocol changed them (a flag stored
/// over IMAP, a POP3 DELE, an SMTP delivery, a UIDVALIDITY change), with no polling.
extension MailControlAPI {
    /// `GET /api/v1/mockserver/changes?since=T&wait=S`: `{"changes": T2}` at once when the
    /// mailbox's token is not `since` (or `since` is not given), else as soon as it changes, or
    /// after `wait` seconds (``defaultWait``; at most ``longestWait``) with the token as it is then.
    func changes(_ query: [String: String]) throws(MailControlError) -> ScriptVocabulary.AdminRoute.Answer {
        var seconds = Self.defaultWait
        if let text = query["wait"] {
            guard let value = Double(text), value >= 0, value <= Self.longestWait else {
                throw MailControlError(400, "wait must be seconds from 0 to \(Int(Self.longestWait)), not \(text)")
            }
            seconds = value
        }
        let since = query["since"] ?? ""
        let store = self.store, timeout = Duration.milliseconds(Int(seconds * 1000))
        return .init(deferred: { [self] in
            let wait = MailboxChangeWait()
            // Told before the token is read, so that no change falls between the two: every
            // address there is, and a delivery of a message not kept yet (a new address's first).
            let observations = store.addresses.map { store.observe($0.text) { wait.finish() } }
            let kept = Set(store.transactions.map(\.id))
            let arrival = Task {
                _ = try? await store.wait(for: MailMatch("a message delivered after the poll began") { !kept.contains($0.id) }, timeout: timeout)
                wait.finish()
            }
            defer {
                arrival.cancel()
                observations.forEach(store.stopObserving)
            }
            if changeToken() == since { await wait.wait(timeout: timeout) }
            return .init(json: .object(["changes": .string(changeToken())]))
        })
    }

    /// A short text that differs whenever the folders do: a digest (FNV-1a) of every address's
    /// folders with their UIDVALIDITY, next UID, HIGHESTMODSEQ (which every change to a message
    /// raises) and message count, and of the number of messages kept.
    func changeToken() -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            hash = (hash ^ 0xFF) &* 0x0000_0100_0000_01b3
        }
        for address in store.addresses {
            mix(address.key)
            for name in store.folders(of: address.text) {
                guard let folder = store.folder(name, of: address.text) else { continue }
                mix("\(name) \(folder.uidValidity) \(folder.nextUID) \(folder.highestModSeq) \(folder.entries.count)")
            }
        }
        mix(String(store.transactions.count))
        return String(hash, radix: 16)
    }
}
