import Foundation
import MockServerCore
import MockServerEngine
import MockServerScript
import MockServerStubs

/// What the dashboard (and any client) reads about a mock besides its transcript: what it is, its
/// response sets, its stubs with their hits, and the reports of its unexpected requests.
enum AdminInspection {
    /// `GET /info`: the mock's address, data port, kind and, for a script, its scheme (not for stubs:
    /// a stub server's responder is a script too, but not one the user wrote).
    static func info(_ target: AdminResponder.Target) -> JSONNode {
        let server = target.server
        var info: [String: JSONNode] = ["listening": .string(server.address.map(\.description) ?? ""), "kind": .string(target.stubs == nil ? "script" : "stubs")]
        if server.dataPort != 0 { info["dataPort"] = .number(Int(server.dataPort)) }
        if target.stubs == nil, let script = server.responder.responseScript { info["scheme"] = .string(script.scheme ?? "") }
        return .object(info)
    }

    /// `GET /sets`: the script's sets and the one new connections use (`{"sets": []}` for stubs: a stub
    /// server's responder is a script too, but its one set, `default`, is not the user's to switch).
    static func sets(_ target: AdminResponder.Target) -> JSONNode {
        guard target.stubs == nil, let responder = target.server.responder as? PatternResponder else { return .object(["sets": .array([])]) }
        return .object(["sets": AdminJSON.strings(responder.script.setNames), "current": .string(responder.setName)])
    }

    /// `GET /stubs`: each stub and endpoint with its hits, oldest first (`{"stubs": []}` for a script).
    static func stubs(_ stubs: HTTPMockServer?) -> JSONNode {
        .object(["stubs": .array((stubs?.stubs ?? []).map { .object(["stub": .string($0.description), "hits": .number($0.hits)]) })])
    }

    /// `GET /unexpected`: each unexpected request's report with both snippets to paste.
    static func unexpected(_ stubs: HTTPMockServer?) -> JSONNode {
        .object(["unexpected": .array((stubs?.unexpectedRequestReports ?? []).map { report in
            .object(["request": .string("\(report.request.method) \(report.request.target)"), "text": .string(report.text),
                     "swift": .string(report.swiftSnippet), "endpoint": .string(report.endpointSnippet)])
        })])
    }

    /// `GET /transcript?since=N`: the entries from sequence `since` on, and the sequence to ask from next.
    static func transcript(_ server: MockServer, since: Int) -> JSONNode {
        let entries = server.transcript.entries.filter { $0.sequence >= since }
        return .object(["entries": .array(entries.map(AdminJSON.entry)), "next": .number((entries.last?.sequence).map { $0 + 1 } ?? since)])
    }

    /// `GET /unmatched`: every input no response matched.
    static func unmatched(_ server: MockServer) -> JSONNode {
        .object(["entries": .array(server.transcript.unmatched.map(AdminJSON.entry))])
    }

    /// `GET /files`: each file's and folder's path with its size.
    static func files(_ server: MockServer) -> JSONNode {
        .object(["files": .object(server.files.mapValues { .number($0.count) })])
    }

    /// What the dashboard draws first, as the answers of the paths it reads (its keys are theirs).
    static func firstState(_ target: AdminResponder.Target) -> JSONNode {
        .object(["info": info(target), "sets": sets(target), "stubs": stubs(target.stubs), "unexpected": unexpected(target.stubs),
                 "files": files(target.server), "unmatched": unmatched(target.server), "transcript": transcript(target.server, since: 0)])
    }
}
