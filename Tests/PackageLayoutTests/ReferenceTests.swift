import Foundation
import Testing
import TestSupport

/// Docs/Reference.md, held equal to the public spellings of the sources it covers: every public
/// member of every public type there (and the free functions) has a row with an example, and no
/// row names a spelling that is gone. The command's flags are held to its usage text the same way.
@Suite("The reference", .cpuBound)
struct ReferenceTests {
    /// The sources the reference covers: every library target (not the command's and the
    /// benchmark's executables, whose spellings are flags).
    static var covered: [String] {
        let sources = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? []
        return sources.filter { !["mockserver", "mockserver-bench", "CMockServerLinux"].contains($0) }.map { "Sources/" + $0 } + ["Responses/BundledResponses.swift"]
    }

    static let root = PackageLayoutTests.root
    static let functions = "Functions"

    /// The Swift files of `covered`.
    static func coveredFiles() throws -> [URL] {
        var files: [URL] = []
        for path in covered {
            let url = root.appendingPathComponent(path)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)
                while let file = enumerator?.nextObject() as? URL {
                    if file.pathExtension == "swift" { files.append(file) }
                }
            } else {
                files.append(url)
            }
        }
        return files
    }

    /// The public spellings of `source`, by the type that declares them (`Outer.Inner`; free
    /// functions under ``functions``): `name` for a property, `name(label:_:)` for a function,
    /// `init(…)`, `subscript(…)`, `.name` for an enum case.
    static func spellings(in source: String) -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        var stack: [(name: String, depth: Int, isProtocol: Bool)] = []
        var depth = 0
        let lines = source.components(separatedBy: "\n")
        let declaration = try! NSRegularExpression(pattern: #"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:(?:static|final|override|nonmutating|mutating|required|convenience|indirect|class|private\(set\))\s+)*(func|var|let|init|subscript|struct|class|enum|protocol|actor)\b\s*([^\s(:<={]*)"#)
        let extensionStart = try! NSRegularExpression(pattern: #"^\s*(?:public\s+)?extension\s+([\w.]+)"#)
        // A protocol's requirements are public without saying so.
        let requirement = try! NSRegularExpression(pattern: #"^\s*(?:static\s+|mutating\s+)*(func|var|init|subscript|associatedtype)\b\s*([^\s(:<={]*)"#)
        for (index, line) in lines.enumerated() {
            let range = NSRange(line.startIndex..., in: line)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("//") { continue }
            // SPI is for the package's own fuzzers, not the public API.
            let isSPI = trimmed.hasPrefix("@_spi")
            if let protocolOwner = stack.last, protocolOwner.isProtocol, !protocolOwner.name.hasPrefix("_spi"), depth == protocolOwner.depth + 1,
               let match = requirement.firstMatch(in: line, range: range) {
                let kind = String(line[Range(match.range(at: 1), in: line)!])
                let name = String(line[Range(match.range(at: 2), in: line)!])
                result[protocolOwner.name, default: []].insert(memberSpelling(kind: kind, name: name, at: index, in: lines))
            } else if let match = declaration.firstMatch(in: line, range: range) {
                let kind = String(line[Range(match.range(at: 1), in: line)!])
                let name = String(line[Range(match.range(at: 2), in: line)!])
                let owner = stack.last?.name
                // An SPI type and what it declares are left out (kept on the stack as `_spi…`).
                let hidden = isSPI || owner?.hasPrefix("_spi") == true
                switch kind {
                case "struct", "class", "enum", "protocol", "actor":
                    let full = hidden ? "_spi" + name : owner.map { $0 + "." + name } ?? name
                    if !hidden { result[full, default: []].formUnion([]) }
                    if line.contains("{") { stack.append((full, depth, kind == "protocol")) }
                case "func", "init", "subscript":
                    // An operator (`==`, `<`) is its protocol's spelling, not the type's.
                    if !hidden, kind != "func" || !name.isEmpty {
                        result[owner ?? functions, default: []].insert(memberSpelling(kind: kind, name: name, at: index, in: lines))
                    }
                default:
                    if let owner, !hidden { result[owner, default: []].insert(name) }
                }
            } else if let owner = stack.last, !owner.name.hasPrefix("_spi"), depth == owner.depth + 1, trimmed.hasPrefix("case "), !trimmed.hasSuffix(":") {
                // An enum's cases: `case a, b(x: Int)`, without what is in parentheses (an SPI
                // enum's are left out with it).
                var plain = ""
                var nesting = 0
                for character in trimmed.dropFirst("case ".count).prefix(while: { $0 != "=" || nesting > 0 }) {
                    if character == "(" { nesting += 1 } else if character == ")" { nesting -= 1 } else if nesting == 0 { plain.append(character) }
                }
                for name in plain.split(separator: ",") {
                    let word = name.trimmingCharacters(in: .whitespaces)
                    if let first = word.first, first.isLetter { result[owner.name, default: []].insert("." + word) }
                }
            } else if let match = extensionStart.firstMatch(in: line, range: range), line.contains("{") {
                stack.append((String(line[Range(match.range(at: 1), in: line)!]), depth, false))
            }
            if !trimmed.hasPrefix("///") {
                depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
            }
            while let last = stack.last, depth <= last.depth { stack.removeLast() }
        }
        return result
    }

    /// A member's spelling: `name` for a property (or an associated type), `name(label:_:)`,
    /// `init(…)` or `subscript(…)` from the declaration at `index`, read over as many lines as its
    /// parameters take.
    static func memberSpelling(kind: String, name: String, at index: Int, in lines: [String]) -> String {
        guard ["func", "init", "subscript"].contains(kind), let start = lines[index].range(of: kind) else { return name }
        var text = String(lines[index][start.lowerBound...])
        var next = index
        while text.filter({ $0 == "(" }).count > text.filter({ $0 == ")" }).count, next + 1 < lines.count {
            next += 1
            text += " " + lines[next].trimmingCharacters(in: .whitespaces)
        }
        let base = kind == "func" ? String(name.prefix { $0 != "<" }) : kind
        return "\(base)(\(labels(text)))"
    }

    /// `label:_:` for a declaration whose text starts at `func`, `init` or `subscript`.
    static func labels(_ declaration: String) -> String {
        guard let open = declaration.firstIndex(of: "(") else { return "" }
        var nesting = 0
        var parameters: [String] = []
        var current = ""
        // Angle brackets are not nesting: `->` and `1 << 20` would unbalance them.
        for character in declaration[declaration.index(after: open)...] {
            if "([".contains(character) { nesting += 1 }
            if ")]".contains(character) {
                if nesting == 0 { break }
                nesting -= 1
            }
            if character == ",", nesting == 0 {
                parameters.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parameters.append(current)
        return parameters.compactMap { parameter -> String? in
            let words = parameter.split(separator: ":", maxSplits: 1).first?.split(separator: " ") ?? []
            guard let label = words.first else { return nil }
            return label + ":"
        }.joined()
    }

    /// The module whose spellings are its top-level type aliases (the renamed types' old names),
    /// listed under a section of its own name.
    static let legacyModule = LegacyAliasLine.module

    /// The public spellings of the covered sources, by type; the old names the legacy module keeps,
    /// under ``legacyModule``.
    static func sourceSpellings() throws -> [String: Set<String>] {
        var all: [String: Set<String>] = [:]
        for file in try coveredFiles() {
            let source = try String(contentsOf: file, encoding: .utf8)
            if file.pathComponents.contains(legacyModule) {
                all[legacyModule, default: []].formUnion(LegacyAliasLine.lines(in: source, file: file.lastPathComponent).compactMap { $0.alias?.old })
            }
            for (type, names) in spellings(in: source) {
                all[type, default: []].formUnion(names)
            }
        }
        return all
    }

    /// The reference's rows: under each "### `Type`" heading, each table row's first cell
    /// (`` `spelling` ``) and its last (the example).
    static func referenceRows() throws -> [String: [(spelling: String, example: String)]] {
        let text = try String(contentsOf: root.appendingPathComponent("Docs/Reference.md"), encoding: .utf8)
        var rows: [String: [(String, String)]] = [:]
        var type: String?
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("### ") {
                let heading = line.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "` "))
                type = heading
                rows[heading, default: []] += []  // a type without members has its heading alone
                continue
            }
            guard let type, line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            rows[type, default: []].append((cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")), cells[cells.count - 2]))
        }
        return rows
    }

    @Test("every public spelling of the covered sources has a row under its type, with an example")
    func everySpellingDocumented() throws {
        let reference = try Self.referenceRows()
        for (type, names) in try Self.sourceSpellings().sorted(by: { $0.key < $1.key }) {
            let documented = Set((reference[type] ?? []).map(\.spelling))
            #expect(reference[type] != nil, "Docs/Reference.md has no section ### `\(type)`")
            for name in names.sorted() where !documented.contains(name) {
                Issue.record("Docs/Reference.md: \(type) has no row for `\(name)`")
            }
        }
        for (type, rows) in reference {
            for row in rows where row.example.isEmpty || !row.example.contains("`") {
                Issue.record("Docs/Reference.md: \(type).\(row.spelling) has no example")
            }
        }
    }

    @Test("no row names a spelling the sources do not declare")
    func noStaleRows() throws {
        let sources = try Self.sourceSpellings()
        // The command's section is held to its usage text.
        for (type, rows) in try Self.referenceRows() where type != "mockserver" {
            guard let names = sources[type] else {
                Issue.record("Docs/Reference.md has a section for \(type), which the covered sources do not declare public")
                continue
            }
            for row in rows where !names.contains(row.spelling) {
                Issue.record("Docs/Reference.md: \(type) has a row for `\(row.spelling)`, which it does not declare")
            }
        }
    }

    @Test("every flag of mockserver's usage has a row under `mockserver`, and every row is a flag")
    func commandFlags() throws {
        let usage = try ["Sources/mockserver/CommandLineOptions.swift", "Sources/mockserver/RecordOptions.swift", "Sources/mockserver/MailOptions.swift"].map {
            try String(contentsOf: Self.root.appendingPathComponent($0), encoding: .utf8)
        }.joined()
        let flagPattern = try NSRegularExpression(pattern: #"(?<![\w-])--[a-z][a-z0-9-]*[a-z0-9]"#)
        let flags = Set(flagPattern.matches(in: usage, range: NSRange(usage.startIndex..., in: usage)).map { String(usage[Range($0.range, in: usage)!]) })
        let rows = Set(try Self.referenceRows()["mockserver"]?.map { String($0.spelling.split(separator: " ").first ?? "") } ?? [])
        for flag in flags.sorted() where !rows.contains(flag) {
            Issue.record("Docs/Reference.md: mockserver has no row for \(flag)")
        }
        for row in rows.sorted() where !flags.contains(row) && row != "record" && row != "mail" {
            Issue.record("Docs/Reference.md: mockserver's row \(row) is not a flag of the command")
        }
    }

    @Test("the scanner reads declarations as the compiler does")
    func scanner() {
        let source = """
            public struct Outer {
                /// A value.
                public let value: Int
                public private(set) var count = 0
                public init(value: Int, _ other: [String: Int] = [:], limit: Int = 1 << 20, observer: ((Int) -> Void)? = nil) { self.value = value }
                public func run<T>(_ body: (Int, String) -> T, label name: String) -> T { body(1, "") }
                func hidden() {}
                public enum Kind: Sendable {
                    case a, b(x: Int), c
                    case d = 4
                }
                public subscript(key: String) -> Int {
                    switch key {
                    case "x": 1
                    default: 0
                    }
                }
            }
            public func free(
                first: Int,
                second: Int
            ) {}
            extension Outer {
                public static var shared: Outer { Outer(value: 1) }
            }
            extension Outer: Equatable {
                public static func == (lhs: Outer, rhs: Outer) -> Bool { true }
            }
            public protocol Answering: Sendable {
                associatedtype Answer
                var name: String { get }
                func answer(_ input: String, context: Int) throws -> Answer
            }
            @_spi(Framing) public protocol Hidden {
                func hidden()
            }
            @_spi(Framing) public struct HiddenToo {
                public func next() {}
                @_spi(Framing) public enum Inner {
                    case first(String)
                    case second
                }
            }
            """
        let spellings = Self.spellings(in: source)
        #expect(spellings["Outer"] == ["value", "count", "init(value:_:limit:observer:)", "run(_:label:)", "subscript(key:)", "shared"])
        #expect(spellings["Outer.Kind"] == [".a", ".b", ".c", ".d"])
        #expect(spellings[Self.functions] == ["free(first:second:)"])
        #expect(spellings["Answering"] == ["Answer", "name", "answer(_:context:)"])
        #expect(spellings["Hidden"] == nil && spellings["HiddenToo"] == nil && spellings.keys.allSatisfy { !$0.hasPrefix("_spi") })
    }
}
