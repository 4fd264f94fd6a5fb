import Foundation

/// A `public` line of MockServerLegacyNames, read once for the tests that hold the module
/// (ServerSideNamesTests: only deprecated aliases of clashing names) and for the reference
/// (ReferenceTests: the aliases are the module's spellings).
struct LegacyAliasLine {
    /// The module that keeps the renamed types' old names, a folder of Sources.
    static let module = "MockServerLegacyNames"

    /// Where the line is: its file, under the module's folder, and its number (from 1).
    let file: String
    let number: Int
    /// The line's words.
    let words: [Substring]
    /// The line before it (an alias's `@available` attribute).
    let previous: Substring?

    /// The old name and the type it names, when the line is `public typealias Old = New`.
    var alias: (old: String, new: String)? {
        words.count == 5 && words[1] == "typealias" && words[3] == "=" ? (String(words[2]), String(words[4])) : nil
    }

    /// The `public` lines of `source` (the file named `file`).
    static func lines(in source: String, file: String) -> [LegacyAliasLine] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.indices.filter { lines[$0].hasPrefix("public ") }.map { index in
            LegacyAliasLine(file: file, number: index + 1, words: lines[index].split(separator: " "), previous: index > 0 ? lines[index - 1] : nil)
        }
    }

    /// The `public` lines of every file of the module.
    static func all() throws -> [LegacyAliasLine] {
        let folder = PackageLayoutTests.root.appendingPathComponent("Sources").appendingPathComponent(module)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted().flatMap { file in
            lines(in: try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8), file: file)
        }
    }
}
