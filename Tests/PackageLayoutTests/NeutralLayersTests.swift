import Foundation
import Testing
import TestSupport

/// The core and the script engine name no protocol (issue 36): every protocol brings its own
/// vocabulary (STYLE.md, item 20), so a word of HTTP, FTP or WebDAV in the code of
/// `Sources/MockServerCore` or `Sources/MockServerScript` is a protocol's concern that sits in the
/// wrong layer. Comments may name protocols (as examples of what a protocol adds); code and string
/// literals may not: a string such as `"upload-settle"` is a key the engine would read for FTP.
@Suite("Neutral layers", .cpuBound)
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
        // Bytes, not Characters: every delimiter is ASCII, and a debug build walks Characters about
        // fifty times slower (this scan over the sources took 18 s of a suite run that way).
        enum State { case code, string(hashes: Int, multiline: Bool), lineComment, blockComment(depth: Int) }
        let bytes = Array(source.utf8)
        let (slash, star, quote, hash, backslash, newline): (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (47, 42, 34, 35, 92, 10)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var state = State.code
        var index = 0
        func at(_ position: Int, _ byte: UInt8) -> Bool { position < bytes.count && bytes[position] == byte }
        func starts(with pattern: [UInt8], at position: Int) -> Bool {
            guard position + pattern.count <= bytes.count else { return false }
            for offset in pattern.indices where bytes[position + offset] != pattern[offset] { return false }
            return true
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch state {
            case .code:
                if byte == slash, at(index + 1, slash) {
                    state = .lineComment
                    index += 2
                    continue
                }
                if byte == slash, at(index + 1, star) {
                    state = .blockComment(depth: 1)
                    index += 2
                    continue
                }
                var hashes = 0
                while at(index + hashes, hash) { hashes += 1 }
                if at(index + hashes, quote) {
                    let multiline = starts(with: [quote, quote, quote], at: index + hashes)
                    let length = hashes + (multiline ? 3 : 1)
                    output.append(contentsOf: bytes[index..<index + length])
                    index += length
                    state = .string(hashes: hashes, multiline: multiline)
                    continue
                }
                output.append(byte)
                index += 1
            case .string(let hashes, let multiline):
                if hashes == 0 && byte == backslash && index + 1 < bytes.count {
                    output.append(contentsOf: bytes[index...index + 1].filter { keepingStrings || $0 == newline })
                    index += 2
                    continue
                }
                let close = (multiline ? [quote, quote, quote] : [quote]) + Array(repeating: hash, count: hashes)
                if starts(with: close, at: index) {
                    output.append(contentsOf: close)
                    index += close.count
                    state = .code
                    continue
                }
                if keepingStrings || byte == newline { output.append(byte) }
                index += 1
            case .lineComment:
                if byte == newline {
                    output.append(byte)
                    state = .code
                }
                index += 1
            case .blockComment(let depth):
                if byte == star, at(index + 1, slash) {
                    state = depth == 1 ? .code : .blockComment(depth: depth - 1)
                    index += 2
                    continue
                }
                if byte == slash, at(index + 1, star) {
                    state = .blockComment(depth: depth + 1)
                    index += 2
                    continue
                }
                if byte == newline { output.append(byte) }
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The words of one line of code: each run of ASCII letters and digits, and each part of a
    /// camel-case one (`HTTPDate`: `HTTPDate`, `HTTP`, `Date`; `dataPort`: `data`, `Port`; `v2`:
    /// `v`, `2`), lowercased. A byte scan: the regular expressions it replaced took seconds a run in
    /// a debug build.
    static func words(of line: Substring) -> Set<String> {
        func isUpper(_ byte: UInt8) -> Bool { byte >= 65 && byte <= 90 }
        func isLower(_ byte: UInt8) -> Bool { byte >= 97 && byte <= 122 }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
        func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self).lowercased() }
        let bytes = Array(line.utf8)
        var words: Set<String> = []
        var start = 0
        while start < bytes.count {
            guard isUpper(bytes[start]) || isLower(bytes[start]) || isDigit(bytes[start]) else { start += 1; continue }
            var end = start
            while end < bytes.count, isUpper(bytes[end]) || isLower(bytes[end]) || isDigit(bytes[end]) { end += 1 }
            words.insert(text(bytes[start..<end]))
            // The parts: a run of digits; capitals not followed by a small letter; a capital or none
            // and the small letters after it.
            var part = start
            while part < end {
                var next = part
                if isDigit(bytes[part]) {
                    while next < end, isDigit(bytes[next]) { next += 1 }
                } else if isUpper(bytes[part]) {
                    while next < end, isUpper(bytes[next]) { next += 1 }
                    if next < end, isLower(bytes[next]) {
                        if next - part > 1 {
                            next -= 1
                        } else {
                            while next < end, isLower(bytes[next]) { next += 1 }
                        }
                    }
                } else {
                    while next < end, isLower(bytes[next]) { next += 1 }
                }
                words.insert(text(bytes[part..<next]))
                part = next
            }
            start = end
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
        #expect(Self.words(of: "HTTPDate") == ["httpdate", "http", "date"])
        #expect(Self.words(of: "URLs v2 aB, é_x9") == ["urls", "ur", "ls", "v2", "v", "2", "ab", "a", "b", "x9", "x", "9"])
        #expect(Self.code(of: "let é = \"ü\" /* ß */ // ö\nx") == "let é = \"ü\"  \nx")
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
