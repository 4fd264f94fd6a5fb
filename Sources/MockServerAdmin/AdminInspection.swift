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

    /// `GET /sets`: the script's sets and the one new connections use (`{"sets": []}` for stubs).
    static func sets(_ server: MockServer) -> [String: Any] {
        guard let responder = server.responder as? PatternResponder else { return ["sets": [String]()] }
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
}
