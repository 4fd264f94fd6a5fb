import Foundation
import Testing
import TestSupport

/// No public type of ours is named as a public type of the server-side packages a test file imports
/// beside this one (swift-nio, NIOSSL, AsyncHTTPClient, swift-http-types, Hummingbird, Vapor,
/// FlyingFox): both would be in scope unqualified, every use ambiguous, and `MockServer.X` cannot
/// pick ours before Swift 6.3, because the module has a type named `MockServer`.
@Suite("Names beside server-side Swift", .cpuBound)
struct ServerSideNamesTests {
    /// The top-level public type names of those packages, as `Scripts/server-side-type-names.sh`
    /// wrote them from their sources at the versions it names.
    static func serverSideNames() throws -> Set<String> {
        let url = Tools.repositoryRoot.appendingPathComponent("Tests/PackageLayoutTests/ServerSideTypeNames.txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        return Set(text.split(separator: "\n").map(String.init))
    }

    /// The names of `ours` (top-level ones: a nested type is reached through its outer one) that
    /// `theirs` also declares.
    static func clashes(_ ours: [String: String], with theirs: Set<String>) -> [(name: String, file: String)] {
        ours.filter { !$0.key.contains(".") && theirs.contains($0.key) }.map { ($0.key, $0.value) }.sorted { $0.name < $1.name }
    }

    @Test("no top-level public type of a library target is named as a public type of swift-nio, NIOSSL, AsyncHTTPClient, swift-http-types, Hummingbird, Vapor or FlyingFox")
    func noSharedNames() throws {
        let theirs = try Self.serverSideNames()
        // The list is the real one: a truncated or empty file would pass anything.
        #expect(theirs.count > 600)
        #expect(theirs.isSuperset(of: ["HTTPHeaders", "ByteBuffer", "TLSConfiguration", "HTTPClient", "Router", "Application", "HTTPFields", "SocketAddress"]))
        let ours = try PackageLayoutTests.sourceTypes()
        #expect(ours.count > 30)
        for clash in Self.clashes(ours.mapValues(\.file), with: theirs) {
            Issue.record("\(clash.name) (Sources/\(clash.file)) has the name of a public type of a server-side package (Tests/PackageLayoutTests/ServerSideTypeNames.txt): rename it, and list the old name in CHANGELOG.md and MockServerLegacyNames")
        }
    }

    @Test("the check finds a clash of a top-level type, and not of a nested one")
    func clashesAreFound() {
        let ours = ["HTTPHeaders": "MockServerHTTP/HTTPHeaders.swift", "Stub.Request": "MockServerStubs/Stub.swift", "HTTPHeaderFields": "MockServerHTTP/HTTPHeaderFields.swift"]
        let found = Self.clashes(ours, with: ["HTTPHeaders", "Request"])
        #expect(found.map(\.name) == ["HTTPHeaders"])
    }

    // Each alias's row in Docs/Reference.md is ReferenceTests', which reads them as the module's spellings.
    @Test("MockServerLegacyNames declares only deprecated aliases, each of a name the server-side packages use and to a type of ours")
    func legacyNamesAreDeprecatedAliases() throws {
        let theirs = try Self.serverSideNames()
        let ours = try PackageLayoutTests.sourceTypes()
        var aliases = 0
        for line in try LegacyAliasLine.all() {
            guard let alias = line.alias else {
                Issue.record("Sources/\(LegacyAliasLine.module)/\(line.file):\(line.number): only `public typealias Old = New` belongs here")
                continue
            }
            aliases += 1
            #expect(line.previous?.hasPrefix("@available(*, deprecated, renamed: \"\(alias.new)\"") == true, "\(alias.old) is not deprecated in favour of \(alias.new)")
            #expect(theirs.contains(alias.old), "\(alias.old) clashes with nothing: it need not be kept apart")
            #expect(ours[alias.new] != nil, "\(alias.new) is not a public type of ours")
        }
        #expect(aliases == 6)
    }
}
