@_spi(HotPath) import MockServerCore
import MockServerMail
import MockServerScript

/// MockServer's own routes on the mail server's control API (`mockserver mail --admin`), beside
/// Mailpit's (``MailpitAPI``), under a prefix Mailpit does not use, `/api/v1/mockserver/`: what
/// Mailpit has no routes for, the folders IMAP sees and failures at any point of SMTP, POP3 and IMAP.
///
/// | route | answer |
/// |---|---|
/// | `GET /api/v1/mockserver/mailboxes?start=N&limit=N&messages=N` | the addresses with their folders (``MailControlJSON``), each folder with its newest `messages` (0 by default) |
/// | `GET /api/v1/mockserver/folders?address=A` | the folders of one address |
/// | `GET /api/v1/mockserver/folder?address=A&folder=F&start=N&limit=N` | one folder with its messages, lowest UID first |
/// | `POST /api/v1/mockserver/uidvalidity` | `{"address": A, "folder": F}`: a new UIDVALIDITY for the folder, its messages renumbered |
/// | `GET`, `POST`, `DELETE /api/v1/mockserver/failures` | the fault plan's rules; adds one (``MailFaultRule/init(controlJSON:)``); removes all, or those of `?point=P` |
/// | `GET /api/v1/mockserver/changes?since=T&wait=S` | `{"changes": T}` once the mailbox's state differs from `since` (the dashboard's long poll) |
///
/// Field names are the control API's (camelCase, unlike Mailpit's); errors are its JSON
/// `{"error": …}` with a 400 or 404 naming the culprit. Every list is paged or capped.
package final class MailControlAPI: Sendable {
    /// The mailbox the routes read and change.
    package let store: MailStore
    /// The failures the routes set: the plan SMTP, POP3 and IMAP sessions ask (Mailpit's chaos sets it too).
    package let faults: MailFaultPlan

    /// What every route's path starts with.
    package static let prefix = "/api/v1/mockserver/"
    /// How many addresses or messages a page gives when `limit` is not given.
    static let defaultLimit = 50
    /// The most addresses or messages one page gives.
    static let largestLimit = 500
    /// The most folders listed per address (`folderCount` tells how many there are).
    static let largestFolderList = 200
    /// The most messages per folder `GET …/mailboxes?messages=N` adds.
    static let largestMessagesPerFolder = 100
    /// The most rules the plan may hold through ``routes`` (a loop in a test cannot fill memory).
    static let largestRuleCount = 256
    /// How long a `changes` poll waits when `wait` is not given, in seconds.
    static let defaultWait = 25.0
    /// The longest `wait` a `changes` poll may ask for, in seconds.
    static let longestWait = 300.0

    /// The routes over `store`, setting `faults`.
    package init(store: MailStore, faults: MailFaultPlan) {
        self.store = store
        self.faults = faults
    }

    /// The routes, for the mail protocol's ``ScriptProtocol/adminRoutes``.
    package var routes: [ScriptVocabulary.AdminRoute] {
        typealias Route = ScriptVocabulary.AdminRoute
        let prefix = Self.prefix
        return [
            Route(verb: "GET", path: prefix + "mailboxes") { [self] request in answer { () throws(MailControlError) in try mailboxes(request.query) } },
            Route(verb: "GET", path: prefix + "folders") { [self] request in answer { () throws(MailControlError) in try folders(request.query) } },
            Route(verb: "GET", path: prefix + "folder") { [self] request in answer { () throws(MailControlError) in try folder(request.query) } },
            Route(verb: "POST", path: prefix + "uidvalidity") { [self] request in answer { () throws(MailControlError) in try changeUIDValidity(body: request.body) } },
            Route(verb: "GET", path: prefix + "failures") { [self] _ in .init(json: failureList) },
            Route(verb: "POST", path: prefix + "failures") { [self] request in answer { () throws(MailControlError) in try addFailure(body: request.body) } },
            Route(verb: "DELETE", path: prefix + "failures") { [self] request in answer { () throws(MailControlError) in try removeFailures(request.query) } },
            Route(verb: "GET", path: prefix + "changes") { [self] request in answer { () throws(MailControlError) in try changes(request.query) } },
        ]
    }

    /// What `make` gives, or its failure as the control API answers one: `{"error": …}` with its status.
    private func answer(_ make: () throws(MailControlError) -> ScriptVocabulary.AdminRoute.Answer) -> ScriptVocabulary.AdminRoute.Answer {
        do {
            return try make()
        } catch {
            return .init(status: error.status, json: .object(["error": .string(error.description)]))
        }
    }

    // MARK: Reading parameters

    /// Query parameter `name` as a whole number from 0 to `largest`; `defaultValue` when it is absent.
    static func wholeNumber(_ query: [String: String], _ name: String, default defaultValue: Int, largest: Int) throws(MailControlError) -> Int {
        guard let text = query[name] else { return defaultValue }
        guard let number = Int(text), (0...largest).contains(number) else {
            throw MailControlError(400, "\(name) must be a whole number from 0 to \(largest), not \(text)")
        }
        return number
    }

    /// Query parameter `name`, which must be there and not empty.
    static func required(_ query: [String: String], _ name: String, example: String) throws(MailControlError) -> String {
        guard let text = query[name], !text.isEmpty else { throw MailControlError(400, "no \(name): give \(name)=\(example)") }
        return text
    }

    /// The members of a JSON object body, by name; every name must be one of `fields`.
    static func object(_ body: [UInt8], fields: [String], example: String) throws(MailControlError) -> [String: JSONNode] {
        let root: JSONNode
        do {
            root = try JSONReader.parse(body, options: .strict)
        } catch {
            throw MailControlError(400, "the body is not JSON (\(error)); send \(example)")
        }
        guard case .object(let members) = root.kind else { throw MailControlError(400, "the body must be a JSON object like \(example), not \(root.typeName)") }
        for member in members where !fields.contains(member.key) {
            throw MailControlError(400, "unknown field \(member.key) (fields: \(fields.joined(separator: ", ")))")
        }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    }
}
