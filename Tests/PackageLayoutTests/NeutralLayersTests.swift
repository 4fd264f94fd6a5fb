import Foundation
import Testing

/// The core and the script engine name no protocol (issue 36): every protocol brings its own
/// vocabulary (STYLE.md, item 20), so a word of HTTP, FTP or WebDAV in the code of
/// `Sources/MockServerCore` or `Sources/MockServerScript` is a protocol's concern that sits in the
/// wrong layer. Comments may name protocols (as examples of what a protocol adds); code and string
/// literals may not: a string such as `"upload-settle"` is a key the engine would read for FTP.
@Suite("Neutral layers")
struct NeutralLayersTests {
    /// The folders whose code must be neutral.
    static let neutralFolders = ["Sources/MockServerCore", "Sources/MockServerScript"]

    /// Words that only a protocol's layer has a reason to say, compared case-insensitively with each
    /// whole word and with each part of a camel-case or hyphenated name (`uploadSettle`, `HTTPDate`,
    /// `upload-settle`):
    /// - the protocols' names: HTTP, HTTPS, FTP, FTPS, WebDAV, WebSocket;
    /// - FTP's: its data connections' transcript events (`dataSent`, `dataReceived`), its passive
    ///   and extended-passive replies (`pasv`, `epsv`), its data port variable (`dataport`), its
    ///   upload settling (`settle`, as in `upload-settle`), its listing override (`listing`), its
    ///   verbs (`retr`, `stor`);
    /// - HTTP's: its request's `method` and `header`s, the endpoints format (`endpoint`,
    ///   `endpoints`);
    /// - WebDAV's: `propfind`, `mkcol`.
    /// Words that are neutral in a byte engine too are left out on purpose: `data` (the script's
    /// data), `port` and `path` (listeners and files), `body`, `head` (a queue's head), `request`,
    /// `status` (a system call's), `control` (epoll's `epoll_ctl`), `upload` (the server keeps every
    /// protocol's uploads: FTP's `STOR`, HTTP's `{"save": …}`).
    static let protocolWords: Set<String> = [
        "http", "https", "ftp", "ftps", "webdav", "websocket",
        "datasent", "datareceived", "pasv", "epsv", "dataport", "settle", "listing", "retr", "stor",
        "method", "header", "headers", "endpoint", "endpoints",
        "propfind", "mkcol",
    ]

    /// Words that are neutral in one neutral folder but a protocol's in another, by folder: `head`
    /// is a queue's head in the core, but in the script engine it can only be HTTP's request head
    /// (`"head": true`, `answersHead`), which HTTP reads as a response trait of its own.
    static let folderWords: [String: Set<String>] = ["Sources/MockServerScript": ["head", "heads"]]

    /// Hits still to be removed, by file and word, each with who removes it. A known exception that
    /// no longer occurs is an error too, so that it is deleted with the code.
    static let knownExceptions: [String: Set<String>] = [:]

    /// One protocol word in the code: where, and which.
    struct Hit: CustomStringConvertible {
        let path: String
        let line: Int
        let word: String
        let text: String
        var description: String { "\(path):\(line): \"\(word)\" in `\(text.trimmingCharacters(in: .whitespaces))`" }
    }

    /// `source` with its comments blanked out (line and nested block comments; string literals,
    /// multi-line and raw ones included, are kept), line breaks kept so that lines still count.
    /// With `keepingStrings` false, string literals' contents are blanked too (their quotes and line
    /// breaks stay).
    static func code(of source: String, keepingStrings: Bool = true) -> String {
        enum State { case code, string(hashes: Int, multiline: Bool), lineComment, blockComment(depth: Int) }
        let characters = Array(source)
        var output: [Character] = []
        output.reserveCapacity(characters.count)
        var state = State.code
        var index = 0
        func starts(with text: String, at position: Int) -> Bool {
            let pattern = Array(text)
            return position + pattern.count <= characters.count && Array(characters[position..<position + pattern.count]) == pattern
        }
        while index < characters.count {
            let character = characters[index]
            switch state {
            case .code:
                if starts(with: "//", at: index) {
                    state = .lineComment
                    index += 2
                    continue
                }
                if starts(with: "/*", at: index) {
                    state = .blockComment(depth: 1)
                    index += 2
                    continue
                }
                var hashes = 0
                while index + hashes < characters.count && characters[index + hashes] == "#" { hashes += 1 }
                if index + hashes < characters.count && characters[index + hashes] == "\"" {
                    let multiline = starts(with: "\"\"\"", at: index + hashes)
                    let length = hashes + (multiline ? 3 : 1)
                    output.append(contentsOf: characters[index..<index + length])
                    index += length
                    state = .string(hashes: hashes, multiline: multiline)
                    continue
                }
                output.append(character)
                index += 1
            case .string(let hashes, let multiline):
                if hashes == 0 && character == "\\" && index + 1 < characters.count {
                    output.append(contentsOf: characters[index...index + 1].filter { keepingStrings || $0 == "\n" })
                    index += 2
                    continue
                }
                let close = (multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes)
                if starts(with: close, at: index) {
                    output.append(contentsOf: close)
                    index += close.count
                    state = .code
                    continue
                }
                if keepingStrings || character == "\n" { output.append(character) }
                index += 1
            case .lineComment:
                if character == "\n" {
                    output.append(character)
                    state = .code
                }
                index += 1
            case .blockComment(let depth):
                if starts(with: "*/", at: index) {
                    state = depth == 1 ? .code : .blockComment(depth: depth - 1)
                    index += 2
                    continue
                }
                if starts(with: "/*", at: index) {
                    state = .blockComment(depth: depth + 1)
                    index += 2
                    continue
                }
                if character == "\n" { output.append(character) }
                index += 1
            }
        }
        return String(output)
    }

    /// The words of one line of code: each run of letters and digits, and each part of a camel-case
    /// one (`HTTPDate`: `HTTPDate`, `HTTP`, `Date`), lowercased.
    static func words(of line: Substring) -> Set<String> {
        var words: Set<String> = []
        for match in line.matches(of: #/[A-Za-z0-9]+/#) {
            let word = match.output
            words.insert(word.lowercased())
            for part in word.matches(of: #/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/#) { words.insert(part.output.lowercased()) }
        }
        return words
    }

    /// Every protocol word in the code of the neutral folders.
    static func hits() throws -> [Hit] {
        var hits: [Hit] = []
        for folder in neutralFolders {
            let root = PackageLayoutTests.root.appendingPathComponent(folder)
            let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
            while let relative = enumerator.nextObject() as? String {
                guard relative.hasSuffix(".swift") else { continue }
                let path = "\(folder)/\(relative)"
                let source = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
                for (number, line) in code(of: source).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    for word in words(of: line).intersection(protocolWords.union(folderWords[folder] ?? [])).sorted() {
                        hits.append(Hit(path: path, line: number + 1, word: word, text: String(line)))
                    }
                }
            }
        }
        return hits.sorted { ($0.path, $0.line, $0.word) < ($1.path, $1.line, $1.word) }
    }

    @Test("the comment stripper keeps code and strings and drops line, block and nested comments")
    func commentStripper() {
        let source = """
        let a = "http" // FTP
        /* WebDAV /* nested */ still */ let b = 1
        let c = #"a "raw" ftp"# /// doc
        let d = "a \\" // not a comment"
        """
        let lines = Self.code(of: source).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines == [#"let a = "http" "#, " let b = 1", ##"let c = #"a "raw" ftp"# "##, #"let d = "a \" // not a comment""#])
        #expect(Self.words(of: "uploadSettle HTTPDate upload-settle dataPort").isSuperset(of: ["upload", "http", "settle", "dataport"]))
        #expect(Self.words(of: "let port = head").isDisjoint(with: Self.protocolWords))
    }

    @Test("the core and the script engine name no protocol outside comments")
    func noProtocolWords() throws {
        let hits = try Self.hits()
        var excepted: [String: Set<String>] = [:]
        for hit in hits {
            if Self.knownExceptions[hit.path]?.contains(hit.word) == true {
                excepted[hit.path, default: []].insert(hit.word)
            } else {
                Issue.record("\(hit): a protocol's word in a neutral layer; move the code to the protocol's target")
            }
        }
        for (path, words) in Self.knownExceptions {
            for word in words.subtracting(excepted[path] ?? []).sorted() {
                Issue.record("\(path): the known exception \"\(word)\" no longer occurs; delete it from knownExceptions")
            }
        }
    }
}
