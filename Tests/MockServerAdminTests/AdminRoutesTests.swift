import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import MockServer
import MockServerCore
@testable import MockServerAdmin

/// The control API's route table, read without a socket: which route answers a method and path,
/// and what is left for the handler.
@Suite("Admin route table")
struct AdminRoutesTests {
    /// What `match` gave, as a value to compare.
    private func outcome(_ method: String, _ path: String) -> String {
        switch AdminRoutes.match(method, path) {
        case .route(let route, let rest): "\(route.method) \(route.usages[0]) rest=\(rest)"
        case .methodNotAllowed(let allowed): "405 \(allowed.joined(separator: ","))"
        case .notFound: "404"
        }
    }

    @Test("a method and path find their route, with the rest of a PATH or NAME", arguments: [
        ("GET", "/", "GET GET / rest="),
        ("GET", "/transcript", "GET GET /transcript?since=N&wait=S rest="),
        ("GET", "/files", "GET GET /files rest="),
        ("GET", "/files/a/b.txt", "GET GET /files/PATH rest=a/b.txt"),
        ("PUT", "/files/new.txt", "PUT PUT /files/PATH rest=new.txt"),
        ("DELETE", "/files/", "DELETE DELETE /files/PATH rest="),
        ("GET", "/uploads/", "GET GET /uploads/NAME rest="),
        ("GET", "/wait", "GET GET /wait?input=REGEX&timeout=S rest="),
        ("DELETE", "/conditions", "DELETE DELETE /conditions rest="),
    ])
    func routes(method: String, path: String, expected: String) {
        #expect(outcome(method, path) == expected)
    }

    @Test("a known path asked with another method is a 405 listing the methods it takes; an unknown path a 404", arguments: [
        ("PUT", "/transcript", "405 GET"),
        ("POST", "/conditions", "405 GET,PUT,DELETE"),
        ("GET", "/files/", "405 DELETE"),
        ("POST", "/files/x", "405 GET,PUT,DELETE"),
        ("GET", "/shutdown", "405 POST"),
        ("GET", "/nothing", "404"),
        ("GET", "/transcript/", "404"),
        ("GET", "", "404"),
    ])
    func refusals(method: String, path: String, expected: String) {
        #expect(outcome(method, path) == expected)
    }

    @Test("two path patterns overlap when some path is taken by both", arguments: [
        (AdminRoute.PathPattern.exact("/a"), AdminRoute.PathPattern.exact("/a"), true),
        (.exact("/a"), .exact("/b"), false),
        (.exact("/files/x"), .prefix("/files/", restMayBeEmpty: false), true),
        (.prefix("/files/", restMayBeEmpty: false), .exact("/files/"), false),
        (.prefix("/files/", restMayBeEmpty: true), .exact("/files/"), true),
        (.prefix("/files/", restMayBeEmpty: false), .prefix("/files/deep/", restMayBeEmpty: false), true),
        (.prefix("/fil", restMayBeEmpty: false), .prefix("/files/", restMayBeEmpty: false), true),
        (.prefix("/files/", restMayBeEmpty: false), .prefix("/uploads/", restMayBeEmpty: true), false),
        (.exact("/api/v1/messages"), .prefix("/api/v1/message/", restMayBeEmpty: false), false),
    ])
    func overlaps(first: AdminRoute.PathPattern, second: AdminRoute.PathPattern, expected: Bool) {
        #expect(first.overlaps(second) == expected)
        #expect(second.overlaps(first) == expected)
    }

    @Test("each route's usages start with its method and a path it takes; no method and exact path twice; the 404's list is the table's")
    func tableIsConsistent() {
        var seen: Set<String> = []
        for route in AdminRoutes.all {
            for usage in route.usages {
                let parts = usage.split(separator: " ")
                #expect(parts.first.map(String.init) == route.method, "\(usage)")
                let path = String(parts[1].split(separator: "?")[0]).replacingOccurrences(of: "PATH", with: "x").replacingOccurrences(of: "NAME", with: "x")
                #expect(route.path.match(path) != nil, "\(usage): its route does not take \(path)")
            }
            if case .exact(let path) = route.path { #expect(seen.insert("\(route.method) \(path)").inserted, "\(route.method) \(path) twice") }
        }
        #expect(AdminResponder.paths == AdminRoutes.all.flatMap(\.usages))
        #expect(AdminResponder.paths.count == 25)
    }

    @Test("the answers' JSON is the package's writer, byte for byte what JSONSerialization wrote before (keys sorted, no spaces)")
    func jsonAsBefore() throws {
        let made: JSONNode = .object([
            "b": .array([.number(1), .number(0.25), .number(2.0), .number(1764140764.125), .bool(true), .null]),
            "a": .string("quote \" backslash \\ slash / tab \t newline \n é ✓"),
            "files": .object(["/docs/new.txt": .number(5), "/a": .number(0)]),
            "empty": .object([:]),
        ])
        let foundation: [String: Any] = [
            "b": [1, 0.25, 2.0, 1764140764.125, true, NSNull()] as [Any],
            "a": "quote \" backslash \\ slash / tab \t newline \n é ✓",
            "files": ["/docs/new.txt": 5, "/a": 0],
            "empty": [String: Any](),
        ]
        let before = try JSONSerialization.data(withJSONObject: foundation, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        #expect(String(decoding: AdminJSON.encode(made), as: UTF8.self) == String(decoding: before, as: UTF8.self) + "\n")
    }
}
