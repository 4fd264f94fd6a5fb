import Foundation
import Testing
import TestSupport

/// Tests mirror targets (as NIO's and Hummingbird's do): every library target has a test target of
/// its own, each test target declares exactly the modules its files import, and the cross-layer
/// target `MockServerTests` keeps only what crosses layers.
@Suite("Test targets", .cpuBound)
struct TestTargetsTests {
    static let root = Tools.repositoryRoot

    /// Modules of the toolchain, which a manifest does not declare.
    static let system: Set<String> = ["Foundation", "FoundationNetworking", "FoundationEssentials", "Testing", "XCTest",
                                      "Glibc", "Darwin", "Dispatch", "Synchronization"]

    /// Each test target of `Package.swift`: its name, its folder and the dependencies it declares.
    static func manifestTestTargets() throws -> [(name: String, path: String, dependencies: Set<String>)] {
        try PackageLayoutTests.manifestTargets().filter { $0.kind == "testTarget" }.map { ($0.name, $0.path, $0.dependencies) }
    }

    /// The Swift files under `folder`, relative to the repository.
    static func swiftFiles(in folder: String) throws -> [String] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path))
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }
    }

    /// The modules a Swift file imports (`@testable` and `@_spi` imports included, system modules not).
    static func imports(of file: String) throws -> Set<String> {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        let statement = try NSRegularExpression(pattern: #"^(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|enum|class|protocol|func|typealias|var|let)\s+)?(\w+)"#,
                                                options: [.anchorsMatchLines])
        let modules = statement.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range(at: 1), in: text)!]) }
        return Set(modules).subtracting(system)
    }

    @Test("each test target declares exactly the modules its files import")
    func declaredDependencies() throws {
        let targets = try Self.manifestTestTargets()
        #expect(targets.count > 10)
        for target in targets {
            var imported: Set<String> = []
            for file in try Self.swiftFiles(in: target.path) { imported.formUnion(try Self.imports(of: file)) }
            let undeclared = imported.subtracting(target.dependencies), unused = target.dependencies.subtracting(imported)
            #expect(undeclared.isEmpty && unused.isEmpty,
                    "\(target.name): imported but not declared \(undeclared.sorted()), declared but not imported \(unused.sorted())")
        }
    }

    @Test("every library target has a test target named after it")
    func everyLayerHasTests() throws {
        let layers = try PackageLayoutTests.manifestTargets().filter { $0.kind == "target" && $0.name.hasPrefix("MockServer") }.map(\.name)
        #expect(layers.count > 10)
        let tests = Set(try Self.manifestTestTargets().map(\.name))
        // The facade only re-exports and composes: what crosses layers is tested in MockServerTests.
        // MockServerResponses holds only the bundled scripts, which the protocols' tests load.
        for layer in layers where layer != "MockServer" && layer != "MockServerResponses" {
            #expect(tests.contains("\(layer)Tests"), "\(layer) has no test target \(layer)Tests")
        }
    }

    @Test("MockServerTests, which crosses layers, holds at most a third of the test lines")
    func crossLayerShare() throws {
        var lines: [String: Int] = [:]
        for target in try Self.manifestTestTargets() {
            for file in try Self.swiftFiles(in: target.path) {
                let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
                lines[target.name, default: 0] += text.split(separator: "\n", omittingEmptySubsequences: false).count
            }
        }
        let total = lines.values.reduce(0, +), crossing = lines["MockServerTests"] ?? 0
        #expect(total > 5_000)
        #expect(crossing * 3 <= total, "MockServerTests has \(crossing) of \(total) test lines")
    }
}
