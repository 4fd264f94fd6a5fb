import Foundation
import Testing

/// `import MockServer` and `import MockServerTesting` give the same public types (issue 50): the
/// facade re-exports its layers' types name by name, and MockServerTesting re-exports the facade's
/// list, which a change to one must make to the other.
@Suite("The facade's and MockServerTesting's re-exports")
struct ExportsTests {
    /// One `@_exported import kind Module.Name` line.
    struct Export: Hashable, CustomStringConvertible {
        let kind: String
        let module: String
        let name: String
        var description: String { "\(kind) \(module).\(name)" }
    }

    static func exports(in path: String) throws -> [Export] {
        let text = try String(contentsOfFile: PackageLayoutTests.root.appendingPathComponent(path).path, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 4, words[0] == "@_exported", words[1] == "import" else { return nil }
            let path = words[3].split(separator: ".")
            guard path.count == 2 else { return nil }
            return Export(kind: String(words[2]), module: String(path[0]), name: String(path[1]))
        }
    }

    @Test("MockServerTesting re-exports the facade's types, each from MockServer, in the facade's order, and nothing else")
    func testingMirrorsFacade() throws {
        let facade = try Self.exports(in: "Sources/MockServer/Exports.swift")
        let testing = try Self.exports(in: "Sources/MockServerTesting/Exports.swift")
        #expect(facade.count > 40, "the facade's Exports.swift was not read: \(facade.count) re-exports")
        let expected = facade.map { Export(kind: $0.kind, module: "MockServer", name: $0.name) }
        let missing = expected.filter { !testing.contains($0) }
        let extra = testing.filter { !expected.contains($0) }
        #expect(missing.isEmpty, "MockServerTesting/Exports.swift lacks \(missing)")
        #expect(extra.isEmpty, "MockServerTesting/Exports.swift re-exports what the facade does not: \(extra)")
        if missing.isEmpty && extra.isEmpty, let first = testing.indices.first(where: { $0 >= expected.count || testing[$0] != expected[$0] }) {
            Issue.record("MockServerTesting/Exports.swift lists the facade's types in another order: its line for \(testing[first]) is where the facade has \(expected[first])")
        }
    }

    @Test("each type the facade re-exports is declared public, of that kind, in the module it names")
    func facadeNamesDeclaredTypes() throws {
        let facade = try Self.exports(in: "Sources/MockServer/Exports.swift")
        // The one reading of the sources' declarations (PackageLayoutTests'), top-level ones by name.
        let declared = try PackageLayoutTests.sourceTypes()
        for export in facade {
            let type = declared[export.name]
            #expect(type?.module == export.module && type?.kind == export.kind,
                    "\(export): Sources/\(export.module) declares no public \(export.kind) \(export.name) at the top level\(type.map { " (Sources/\($0.file) declares a \($0.kind))" } ?? "")")
        }
    }
}
