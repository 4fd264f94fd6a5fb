import MockServerMail
import MockServerScript

extension MailpitAPI {
    /// `GET /api/v1/wait?query=SEARCH&timeout=S`: the first message the search finds (any
    /// message without `query`), already kept or still to come, as `GET /api/v1/message/{ID}`
    /// gives it; `408` with what did arrive after `timeout` seconds (``defaultWait`` by default).
    /// No polling: a delivery resumes the wait (``MailStore/wait(for:timeout:)``).
    func wait(_ query: [String: String]) throws(MailpitFailure) -> ScriptVocabulary.AdminRoute.Answer {
        var seconds = Self.defaultWait
        if let text = query["timeout"] {
            guard let value = Double(text), value >= 0, value <= Self.longestWait else {
                throw MailpitFailure(400, "timeout must be seconds from 0 to \(Int(Self.longestWait)), not \(text)")
            }
            seconds = value
        }
        let text = query["query"]?.trimmingCharacters(in: .whitespaces) ?? ""
        let search = MailpitSearch(text)
        let match = text.isEmpty ? MailMatch.any : MailMatch(search.description) { [self] in search.matches($0, isRead: isRead($0.id)) }
        let store = self.store, timeout = Duration.milliseconds(Int(seconds * 1000))
        return .init(deferred: {
            do {
                let transaction = try await store.wait(for: match, timeout: timeout)
                return .init(json: MailpitJSON.message(transaction))
            } catch let timeout as MailWaitTimeout {
                return Self.text(timeout.description, status: 408)
            } catch {
                return Self.text("the wait for a message with \(match.description) ended: \(error)", status: 503)
            }
        })
    }
}
