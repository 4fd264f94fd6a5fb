import Foundation
import Testing

/// The server engine names no protocol (issue 50): it is a composition of the protocol values it
/// is given (their connections, listeners, settings), so that a new protocol family is a new target
/// and no edit here. Its imports are the neutral layers (and TLS, a transport) and what Package.swift
/// declares; its code (comments aside) names no protocol family, not even in a string.
@Suite("The engine names no protocol")
struct EngineNamesNoProtocolTests {
    static let engine = "Sources/MockServerEngine"

    /// The modules of the package the engine may import: the core, the script engine, the shared
    /// file system (the product's core shape) and TLS (a transport).
    static let allowedImports: Set<String> = ["MockServerCore", "MockServerScript", "MockServerFileSystem", "MockServerTLS"]

    /// Parts of a name that only a protocol's layer has a reason to say, found anywhere in a word
    /// (compared case-insensitively): `FTPSettings`, `servingHTTP2`, `InProcessRoutes`, `stubRequest`.
    static let protocolNames = ["ftp", "webdav", "websocket", "http2", "grpc", "stub", "mockdata", "inprocess", "smtp", "pop3", "imap", "mail"]
    /// Names that are a protocol's only as a whole part of a word: HTTP/2's ALPN ids (`h2`, `h2c`).
    static let protocolParts: Set<String> = ["h2", "h2c"]

    /// Each protocol name in `source`'s code (comments aside, string literals kept), by line.
    static func hits(in source: String, path: String) -> [String] {
        var hits: [String] = []
        for (number, line) in NeutralLayersTests.code(of: source).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = NeutralLayersTests.words(of: line)
            let named = protocolNames.filter { name in words.contains { $0.contains(name) } } + protocolParts.intersection(words).sorted()
            for name in named { hits.append("\(path):\(number + 1): \"\(name)\" in `\(line.trimmingCharacters(in: .whitespaces))`") }
        }
        return hits
    }

    /// The modules of the package `source` imports.
    static func imports(in source: String) -> Set<String> {
        Set(source.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let index = words.firstIndex(of: "import"), words[..<index].allSatisfy({ $0.hasPrefix("@") }), index + 1 < words.count else { return nil }
            let kinds: Set<Substring> = ["struct", "enum", "class", "protocol", "func", "typealias", "var", "let"]
            let name = kinds.contains(words[index + 1]) && index + 2 < words.count ? words[index + 2] : words[index + 1]
            let module = String(name.split(separator: ".")[0])
            return module.hasPrefix("MockServer") || module.hasPrefix("CMockServer") ? module : nil
        })
    }

    @Test("the engine's code names no protocol, and it imports only the neutral layers and TLS, exactly as Package.swift declares")
    func engineIsNeutral() throws {
        var sources = 0
        for file in try TestTargetsTests.swiftFiles(in: Self.engine) {
            let source = try String(contentsOf: PackageLayoutTests.root.appendingPathComponent(file), encoding: .utf8)
            sources += 1
            for hit in Self.hits(in: source, path: file) { Issue.record("\(hit): a protocol's name in the engine; move it to the protocol's target or the facade") }
            let imported = Self.imports(in: source)
            #expect(imported.isSubset(of: Self.allowedImports), "\(file) imports \(imported.subtracting(Self.allowedImports).sorted())")
        }
        #expect(sources >= 4)
        let engine = try PackageLayoutTests.dependencies(of: "MockServerEngine")
        #expect(engine.declared == engine.imported, "MockServerEngine declares \(engine.declared.sorted()), imports \(engine.imported.sorted())")
        #expect(engine.declared.isSubset(of: Self.allowedImports), "MockServerEngine declares \(engine.declared.sorted())")
    }

    @Test("the scan finds a protocol's import and names in code, and none in comments")
    func scanFindsProtocolNames() {
        let source = """
        import Foundation
        @_spi(HotPath) import MockServerCore
        import MockServerFTP
        import struct MockServerHTTP2.HTTP2Settings
        /// FTP's listing, HTTP/2's settings and a stub: words in a comment are fine.
        let offered = ["h2", "http/1.1"]
        var settings: FTPSettings?
        func servingHTTP2() {}
        let routes = InProcessRoutes.shared // WebDAV
        let port = dataPort + mailbox
        """
        #expect(Self.imports(in: source) == ["MockServerCore", "MockServerFTP", "MockServerHTTP2"])
        let hits = Self.hits(in: source, path: "copy.swift")
        #expect(hits.contains { $0.hasPrefix("copy.swift:3: \"ftp\"") })
        #expect(hits.contains { $0.hasPrefix("copy.swift:4: \"http2\"") })
        #expect(hits.contains { $0.hasPrefix("copy.swift:6: \"h2\"") })
        #expect(hits.contains { $0.hasPrefix("copy.swift:7: \"ftp\"") })
        #expect(hits.contains { $0.hasPrefix("copy.swift:8: \"http2\"") })
        #expect(hits.contains { $0.hasPrefix("copy.swift:9: \"inprocess\"") })
        #expect(hits.contains { $0.hasPrefix("copy.swift:10: \"mail\"") })
        #expect(!hits.contains { $0.hasPrefix("copy.swift:5:") || $0.hasPrefix("copy.swift:1:") || $0.hasPrefix("copy.swift:2:") })
        #expect(hits.count == 7, "\(hits)")
    }

    @Test("the scan finds the protocol names the engine had before it was a composition (main at 4c054b0)")
    func scanFailsOnTheOldEngine() {
        // Lines of the old ServerCore.swift and MockServer.swift, as they were.
        let old = """
        import MockServerFTP
        import MockServerInProcess
        var ftp = script[FTPSettings.self] ?? FTPSettings(uploadSettle: configuration.uploadSettleTime)
        if configuration.http2 == .refuse, let refusal = core.responder.responseScript?.http2FaultRefusal { throw refusal }
        InProcessRoutes.shared.forget(connector)
        """
        #expect(Self.hits(in: old, path: "old.swift").count == 5)
        #expect(!Self.imports(in: old).isSubset(of: Self.allowedImports))
    }
}
