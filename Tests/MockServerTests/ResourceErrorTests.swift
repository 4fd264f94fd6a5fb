import Foundation
import Testing
import TestSupport
import MockServer

/// An error about a resource's copy (a script or an endpoints file a test loads from `Bundle.module`)
/// names the source file to edit too, found in a fake package layout.
@Suite("Errors about resource files")
struct ResourceErrorTests {
    /// A package with `text` at `Tests/AppTests/Responses/NAME` and its copy in a Linux bundle; the copy.
    private func copied(_ name: String, _ text: String) throws -> (copy: URL, source: URL) {
        let root = try Tools.temporaryDirectory()
        let source = root.appendingPathComponent("Tests/AppTests/Responses/\(name)")
        let copy = root.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug/App_AppTests.resources/Responses/\(name)")
        for url in [source, copy] {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try "// swift-tools-version:6.0\n".write(to: root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        return (copy, source)
    }

    @Test("a response script's error names the copy, then the source with the same line and column")
    func script() throws {
        let (copy, source) = try copied("ftp.json", "{\"responses\": {\n  \"a\": {\"pattern\": \"x\", \"commands\": [-1]}}}\n")
        #expect {
            _ = try ResponseScript(contentsOf: copy)
        } throws: { error in
            guard let error = error as? ResponseFileError else { return false }
            return error.file == copy.path && error.sourceFile == source.path
                && "\(error)".hasPrefix("\(copy.path):2:")
                && "\(error)".hasSuffix(" (a copy of \(source.path):\(error.location!.line):\(error.location!.column), the file to edit)")
        }
    }

    @Test("a look-alike's warning names the source too")
    func warning() throws {
        let (copy, source) = try copied("ftp.json", "{\"responses\": {\"a\": {\"pattern\": \"x\", \"commands\": [\"<<close>>\"]}}}\n")
        let script = try ResponseScript(contentsOf: copy)
        #expect(script.warnings.map(\.sourceFile) == [source.path])
    }

    @Test("an endpoints file's error names the source too")
    func endpoints() throws {
        let (copy, source) = try copied("api.json", "{\"endpoints\": [{\"request\": 3}]}\n")
        let server = HTTPMockServer()
        #expect {
            try server.addEndpoints(contentsOf: copy)
        } throws: { error in
            (error as? ResponseFileError)?.sourceFile == source.path && "\(error)".contains("(a copy of \(source.path):")
        }
    }

    @Test("a mock-data file's error names the source too")
    func mockData() throws {
        let (copy, source) = try copied("GET_api.json", "{\n")
        #expect("\(MockDataError.malformedFile(path: copy.path, line: 2, column: 1, message: "not JSON"))"
                    == "\(copy.path):2:1: not JSON (a copy of \(source.path):2:1, the file to edit)")
        #expect("\(MockDataError.unreadableFile(path: copy.path, reason: "denied"))"
                    == "mock data: cannot read \(copy.path): denied (a copy of \(source.path), the file to edit)")
    }

    @Test("an error without a line names the source without one")
    func noLocation() throws {
        var error = ResponseFileError(.unreadable(reason: "gone"), file: "/b/App_T.resources/x.json")
        error.sourceFile = "/p/Tests/T/x.json"
        #expect("\(error)" == "/b/App_T.resources/x.json: cannot read the response file: gone (a copy of /p/Tests/T/x.json, the file to edit)")
    }

    @Test("a file outside any bundle names no source")
    func plainFile() throws {
        let file = try Tools.temporaryDirectory().appendingPathComponent("bad.json")
        try "{".write(to: file, atomically: true, encoding: .utf8)
        #expect {
            _ = try ResponseScript(contentsOf: file)
        } throws: { error in
            (error as? ResponseFileError)?.sourceFile == nil && !"\(error)".contains("a copy of")
        }
    }
}
