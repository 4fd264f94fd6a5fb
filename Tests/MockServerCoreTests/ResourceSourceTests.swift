import Foundation
import Testing
import MockServerCore
import TestSupport

/// A resource's copy in a build's bundle, traced back to the file under the target's folder, in
/// fake package layouts made in a temporary folder.
@Suite("Resource sources")
struct ResourceSourceTests {
    /// A package folder with `Package.swift` (unless `manifest` is false) and the files given, by
    /// path, each holding `{}`.
    private func package(manifest: Bool = true, _ files: [String]) throws -> URL {
        let root = try Tools.temporaryDirectory().appendingPathComponent("pkg")
        for file in (manifest ? ["Package.swift"] : []) + files {
            let url = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "{}".write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test("a copy's source under Tests/ or Sources/, as each platform's bundle lays it out", arguments: [
        // Linux: <Package>_<Target>.resources/X.
        (".build/x86_64-unknown-linux-gnu/debug/App_AppTests.resources/Responses/api.json", "Tests/AppTests/Responses/api.json"),
        // Apple platforms: .bundle, perhaps with Contents/Resources; names that hold `_`.
        (".build/arm64-apple-macosx/debug/My_App_App_Tests.bundle/Contents/Resources/Responses/api.json", "Tests/App_Tests/Responses/api.json"),
        (".build/debug/App_AppLib.bundle/data/x.json", "Sources/AppLib/data/x.json"),
        // A `.process` resource loses its folders: found anywhere in the target's folder.
        (".build/debug/App_AppTests.resources/flat.json", "Tests/AppTests/Fixtures/deep/flat.json"),
    ])
    func found(copy: String, source: String) throws {
        let root = try package([copy, source])
        #expect(ResourceSource.sourceFile(ofCopy: root.appendingPathComponent(copy).path) == root.appendingPathComponent(source).path)
    }

    @Test("nothing when there is no bundle, no package, no source, or two candidates for a flattened file")
    func notFound() throws {
        let copy = ".build/debug/App_AppTests.resources/a.json"
        let noManifest = try package(manifest: false, [copy, "Tests/AppTests/a.json"])
        #expect(ResourceSource.sourceFile(ofCopy: noManifest.appendingPathComponent(copy).path) == nil)
        let noSource = try package([copy, "Tests/Other/a.json"])
        #expect(ResourceSource.sourceFile(ofCopy: noSource.appendingPathComponent(copy).path) == nil)
        let notBundle = try package(["Responses/a.json", "Tests/AppTests/a.json"])
        #expect(ResourceSource.sourceFile(ofCopy: notBundle.appendingPathComponent("Responses/a.json").path) == nil)
        let twice = try package([copy, "Tests/AppTests/x/a.json", "Tests/AppTests/y/a.json"])
        #expect(ResourceSource.sourceFile(ofCopy: twice.appendingPathComponent(copy).path) == nil)
    }
}
