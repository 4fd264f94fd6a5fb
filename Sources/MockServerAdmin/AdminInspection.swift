import Foundation
import MockServer

/// What the dashboard (and any client) reads about a mock besides its transcript: what it is, its
/// response sets, its stubs with their hits, and the reports of its unexpected requests.
enum AdminInspection {
    /// `GET /info`: the mock's address, data port, kind and, for a script, its scheme.
    static func info(_ target: AdminResponder.Target) -> [String: Any] {
        let server = target.server
        var info: [String: Any] = ["listening": server.address.map(\.description) ?? "", "kind": target.stubs == nil ? "script" : "stubs"]
        if server.dataPort != 0 { info["dataPort"] = Int(server.dataPort) }
        if let script = server.responder.responseScript { info["scheme"] = script.scheme ?? "" }
        return info
    }

    /// `GET /sets`: the script's sets and the one new connections use (`{"sets": []}` for stubs: a stub
    /// server's responder is a script too, but its one set, `default`, is not the user's to switch).
    static func sets(_ target: AdminResponder.Target) -> [String: Any] {
        guard target.stubs == nil, let responder = target.server.responder as? PatternResponder else { return ["sets": [String]()] }
        return ["sets": responder.script.setNames, "current": responder.setName]
    }

    /// `GET /stubs`: each stub and endpoint with its hits, oldest first (`{"stubs": []}` for a script).
    static func stubs(_ stubs: HTTPMockServer?) -> [String: Any] {
        ["stubs": (stubs?.stubs ?? []).map { ["stub": $0.description, "hits": $0.hits] as [String: Any] }]
    }

    /// `GET /unexpected`: each unexpected request's report with both snippets to paste.
    static func unexpected(_ stubs: HTTPMockServer?) -> [String: Any] {
        ["unexpected": (stubs?.unexpectedRequestReports ?? []).map { report in
            ["request": "\(report.request.method) \(report.request.target)", "text": report.text,
             "swift": report.swiftSnippet, "endpoint": report.endpointSnippet] as [String: Any]
        }]
    }

    /// `GET /transcript?since=N`: the entries from sequence `since` on, and the sequence to ask from next.
    static func transcript(_ server: MockServer, since: Int) -> [String: Any] {
        let entries = server.transcript.entries.filter { $0.sequence >= since }
        return ["entries": entries.map(AdminJSON.entry), "next": (entries.last?.sequence).map { $0 + 1 } ?? since]
    }

    /// `GET /unmatched`: every input no response matched.
    static func unmatched(_ server: MockServer) -> [String: Any] {
        ["entries": server.transcript.unmatched.map(AdminJSON.entry)]
    }

    /// `GET /files`: each file's and folder's path with its size.
    static func files(_ server: MockServer) -> [String: Any] {
        ["files": server.files.mapValues(\.count)]
    }

    /// What the dashboard draws first, as the answers of the paths it reads (its keys are theirs).
    static func firstState(_ target: AdminResponder.Target) -> [String: Any] {
        ["info": info(target), "sets": sets(target), "stubs": stubs(target.stubs), "unexpected": unexpected(target.stubs),
         "files": files(target.server), "unmatched": unmatched(target.server), "transcript": transcript(target.server, since: 0)]
    }
}
