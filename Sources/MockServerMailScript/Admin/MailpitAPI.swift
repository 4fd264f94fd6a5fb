import Foundation
@_spi(HotPath) import MockServerCore
import MockServerMail
import MockServerScript

/// Mailpit's API v1 on the control API (`mockserver mail --admin`), over the server's
/// ``MailStore`` and ``MailFaultPlan``: the routes and JSON field names Mailpit documents, so that
/// Mailpit's clients and test helpers work unchanged, plus a wait of our own.
///
/// | route | answer |
/// |---|---|
/// | `GET /api/v1/messages?start=N&limit=N` | `{"total", "unread", "count", "messages_count", "messages_unread", "start", "tags", "messages": [summary…]}`, newest first |
/// | `DELETE /api/v1/messages` | every message, or those of `{"IDs": […]}`; `ok` |
/// | `PUT /api/v1/messages` | `{"IDs": […], "Read": true}` marks them (all without IDs) read or unread; `ok` |
/// | `GET /api/v1/message/{ID}` (or `latest`, `latest?query=`) | the whole message; marks it read |
/// | `GET /api/v1/message/{ID}/raw`, `/headers`, `/part/{PartID}` | its bytes; its header fields; one part's decoded content |
/// | `GET /api/v1/search?query=…`, `DELETE /api/v1/search?query=…` | the list's answer for the messages found (``MailpitSearch``); removes them |
/// | `GET /api/v1/chaos`, `PUT /api/v1/chaos` | the triggers at MAIL, RCPT and AUTH (``MailpitChaos``); sets them |
/// | `GET /api/v1/wait?query=…&timeout=S` | the first message the search finds, kept or still to come; `408` after S seconds (10 by default) |
///
/// As in Mailpit, one SMTP transaction is one message, whatever its recipients; its `Bcc` lists
/// the envelope's recipients that `To` and `Cc` do not name. Errors are `text/plain` with
/// Mailpit's statuses: `404` for an unknown message or part, `400` for a bad body or parameter,
/// naming it. Read marks are the API's own (Mailpit's `Read`), forgotten with their message.
///
/// ```swift
/// let api = MailpitAPI(store: store, faults: faults)
/// var adminRoutes: [ScriptVocabulary.AdminRoute] { api.routes }   // in the mail protocol
/// ```
package final class MailpitAPI: Sendable {
    /// The mailbox the routes read and change.
    package let store: MailStore
    /// The failures the chaos routes set.
    package let faults: MailFaultPlan
    /// The IDs of the messages read through ``routes`` (Mailpit's `Read`).
    private let readIDs = Locked(Set<String>())

    /// How long a wait lasts when `timeout` is not given, in seconds.
    package static let defaultWait = 10.0
    /// The longest wait `timeout` may ask for, in seconds.
    package static let longestWait = 3600.0
    /// How many messages a list gives when `limit` is not given (Mailpit's 50).
    package static let defaultLimit = 50

    /// The API over `store`, setting `faults` through its chaos routes.
    package init(store: MailStore, faults: MailFaultPlan) {
        self.store = store
        self.faults = faults
    }

    /// The routes, for the mail protocol's ``ScriptProtocol/adminRoutes``.
    package var routes: [ScriptVocabulary.AdminRoute] {
        typealias Route = ScriptVocabulary.AdminRoute
        return [
            Route(verb: "GET", path: "/api/v1/messages") { [self] request in answer { try list(request.query, search: nil) } },
            Route(verb: "DELETE", path: "/api/v1/messages") { [self] request in answer { try delete(body: request.body) } },
            Route(verb: "PUT", path: "/api/v1/messages") { [self] request in answer { try markRead(body: request.body) } },
            Route(verb: "GET", pathPrefix: "/api/v1/message/") { [self] request in answer { try message(path: request.rest, query: request.query) } },
            Route(verb: "GET", path: "/api/v1/search") { [self] request in answer { try list(request.query, search: Self.search(in: request.query)) } },
            Route(verb: "DELETE", path: "/api/v1/search") { [self] request in answer { try deleteFound(Self.search(in: request.query)) } },
            Route(verb: "GET", path: "/api/v1/chaos") { [self] _ in .init(json: MailpitChaos(plan: faults).json) },
            Route(verb: "PUT", path: "/api/v1/chaos") { [self] request in answer { try setChaos(body: request.body) } },
            Route(verb: "GET", path: "/api/v1/wait") { [self] request in answer { try wait(request.query) } },
        ]
    }

    /// What `make` gives, or its failure as Mailpit answers one (`text/plain`, its status).
    private func answer(_ make: () throws -> ScriptVocabulary.AdminRoute.Answer) -> ScriptVocabulary.AdminRoute.Answer {
        do {
            return try make()
        } catch let failure as MailpitFailure {
            return Self.text(failure.description, status: failure.status)
        } catch {
            return Self.text("\(error)", status: 500)
        }
    }

    /// `text` and a newline as a `text/plain` answer.
    static func text(_ text: String, status: Int = 200) -> ScriptVocabulary.AdminRoute.Answer {
        .init(status: status, body: Array((text + "\n").utf8), contentType: "text/plain; charset=utf-8")
    }

    // MARK: Read marks

    /// Whether the message `id` has been read.
    func isRead(_ id: String) -> Bool { readIDs.withLock { $0.contains(id) } }

    /// Marks `ids` read or unread.
    func mark(_ ids: [String], read: Bool) {
        readIDs.withLock { marks in
            if read { marks.formUnion(ids) } else { marks.subtract(ids) }
        }
    }

    /// The read IDs among `transactions`, forgetting the marks of messages no longer kept.
    func readMarks(keeping transactions: [MailTransaction]) -> Set<String> {
        let kept = Set(transactions.map(\.id))
        return readIDs.withLock { marks in
            marks.formIntersection(kept)
            return marks
        }
    }
}
