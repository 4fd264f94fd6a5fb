import Foundation
import Testing
import MockServer

/// Docs/Layout.md's list of public types, where a line names a value type's properties, names the ones it has.
@Suite("Docs/Layout.md's type table")
struct ReadmeTypeTableTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Docs/Layout.md")

    /// The names after the colon of Docs/Layout.md's line for `type` (`MockServer.Upload   one received upload: name, data, connection`).
    static func listedMembers(of type: String) throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(type + " ") }, "Docs/Layout.md lists no \(type)")
        let afterColon = try #require(line.split(separator: ":", maxSplits: 1).last)
        return afterColon.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test("MockServer.Upload's line names its properties: name, data, connection")
    func upload() throws {
        let upload = MockServer.Upload(name: "report.txt", data: Data("x".utf8), connection: 1)
        let properties = Mirror(reflecting: upload).children.compactMap(\.label)
        #expect(try Self.listedMembers(of: "MockServer.Upload") == properties)
    }
}
