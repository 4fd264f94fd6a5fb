/// Parses one `.proto` file (proto2 or proto3; `edition` is refused) into a ``ProtoParsedFile``:
/// the declarations, with names as written, checked for what one file alone can get wrong
/// (duplicate names and numbers, numbers out of range, proto3's rules). ``ProtoResolver`` then
/// resolves the type names across files. Pure code.
package struct ProtoParser {
    /// How deep messages, groups and aggregate option values may nest: a bound on the parser's
    /// recursion that no real schema reaches.
    package static let depthLimit = 64

    let fileName: String
    var tokens: [ProtoToken]
    var position = 0
    var syntax: ProtoFile.Syntax = .proto2
    /// The package, found before parsing so that a `package` after a definition still applies to it.
    var package = ""
    var depth = 0
    var imports: [ProtoParsedFile.Import] = []
    var references: [ProtoParsedFile.Reference] = []
    var declarations: [ProtoParsedFile.Declaration] = []
    /// The file as parsed so far.
    var file: ProtoFile

    private init(fileName: String, tokens: [ProtoToken]) {
        self.fileName = fileName
        self.tokens = tokens
        file = ProtoFile(name: fileName)
    }

    /// Parses `bytes`, the file named `file`.
    /// - Throws: ``ProtoError`` with the file, line and column of the first fault.
    package static func parse(_ bytes: [UInt8], file: String) throws(ProtoError) -> ProtoParsedFile {
        try ProtoError.typed {
            var parser = ProtoParser(fileName: file, tokens: try ProtoTokenizer.tokens(of: bytes, file: file))
            return try parser.parseFile()
        }
    }

    // MARK: Tokens

    var peek: ProtoToken { tokens[position] }

    var location: ProtoParsedFile.Location { .init(line: peek.line, column: peek.column) }

    @discardableResult mutating func advance() -> ProtoToken {
        let token = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    func error(_ reason: String, at location: ProtoParsedFile.Location? = nil) -> ProtoError {
        let location = location ?? self.location
        return ProtoError(file: fileName, line: location.line, column: location.column, reason: reason)
    }

    func isSymbol(_ symbol: Character) -> Bool { peek.kind == .symbol(symbol) }

    func isKeyword(_ word: String) -> Bool { peek.kind == .identifier(word) }

    mutating func consumeSymbol(_ symbol: Character) -> Bool {
        guard isSymbol(symbol) else { return false }
        advance()
        return true
    }

    mutating func consumeKeyword(_ word: String) -> Bool {
        guard isKeyword(word) else { return false }
        advance()
        return true
    }

    mutating func expectSymbol(_ symbol: Character, _ context: String) throws {
        guard consumeSymbol(symbol) else { throw error("expected '\(symbol)' \(context), found \(peek.shown)") }
    }

    mutating func expectIdentifier(_ what: String) throws -> String {
        guard case .identifier(let name) = peek.kind else { throw error("expected \(what), found \(peek.shown)") }
        advance()
        return name
    }

    /// A dotted name (`foo.bar.Baz`), with a leading dot when `allowLeadingDot` and one is written.
    mutating func expectDottedName(_ what: String, allowLeadingDot: Bool = false) throws -> String {
        var name = ""
        if allowLeadingDot, consumeSymbol(".") { name = "." }
        name += try expectIdentifier(what)
        while isSymbol("."), case .identifier = tokens[min(position + 1, tokens.count - 1)].kind {
            advance()
            name += "." + (try expectIdentifier(what))
        }
        return name
    }

    /// A string literal's bytes.
    mutating func expectString(_ what: String) throws -> [UInt8] {
        guard case .string(let value) = peek.kind else { throw error("expected \(what) (a quoted string), found \(peek.shown)") }
        advance()
        return value
    }

    /// A string literal that must be UTF-8 (a name, a path, a `json_name`).
    mutating func expectText(_ what: String) throws -> String {
        let at = location
        let bytes = try expectString(what)
        guard let text = Self.utf8(bytes) else { throw error("\(what) is not valid UTF-8", at: at) }
        return text
    }

    /// `bytes` as text when they are valid UTF-8 (decoding then encoding again gives them back).
    static func utf8(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// `scope.name`, or `name` in the root scope.
    static func join(_ scope: String, _ name: String) -> String { scope.isEmpty ? name : scope + "." + name }

    mutating func declare(_ fullName: String, _ kind: ProtoParsedFile.Kind, at location: ProtoParsedFile.Location) {
        declarations.append(.init(fullName: fullName, kind: kind, location: location))
    }

    /// Enters a nested block, refusing one past ``depthLimit``.
    mutating func enter() throws {
        depth += 1
        guard depth <= Self.depthLimit else { throw error("declarations nested more than \(Self.depthLimit) deep") }
    }

    // MARK: The file

    /// The `package` statement's name, read ahead (a statement at brace depth 0 that starts with `package`).
    private func packageAhead() -> String {
        var braces = 0
        var index = 0
        while index < tokens.count - 1 {
            let token = tokens[index]
            if token.kind == .symbol("{") { braces += 1 }
            if token.kind == .symbol("}") { braces -= 1 }
            let startsStatement = index == 0 || tokens[index - 1].kind == .symbol(";") || tokens[index - 1].kind == .symbol("}")
            if braces == 0, startsStatement, token.kind == .identifier("package") {
                var name = ""
                var next = index + 1
                while case .identifier(let part) = tokens[next].kind {
                    name += part
                    guard tokens[next + 1].kind == .symbol(".") else { break }
                    name += "."
                    next += 2
                }
                return name
            }
            index += 1
        }
        return ""
    }

    private mutating func parseFile() throws -> ProtoParsedFile {
        package = packageAhead()
        if isKeyword("edition") {
            throw error("editions are not supported: write \"syntax = \\\"proto3\\\";\" or \"proto2\"")
        }
        if consumeKeyword("syntax") {
            try expectSymbol("=", "after \"syntax\"")
            let at = location
            let value = try expectText("the syntax")
            guard let syntax = ProtoFile.Syntax(rawValue: value) else {
                throw error("unknown syntax \"\(value)\": expected \"proto2\" or \"proto3\"", at: at)
            }
            self.syntax = syntax
            try expectSymbol(";", "after the syntax")
        }
        file.package = package
        file.syntax = syntax
        var packageSeen = false
        while peek.kind != .end {
            let at = location
            if consumeSymbol(";") { continue }
            guard case .identifier(let keyword) = peek.kind else { throw error("expected a statement, found \(peek.shown)") }
            switch keyword {
            case "syntax", "edition":
                throw error("\"\(keyword)\" must be the file's first statement")
            case "package":
                advance()
                guard !packageSeen else { throw error("a second package statement", at: at) }
                packageSeen = true
                _ = try expectDottedName("the package's name")
                try expectSymbol(";", "after the package's name")
            case "import":
                advance()
                let isPublic = consumeKeyword("public")
                let isWeak = !isPublic && consumeKeyword("weak")
                let nameAt = location
                let name = try expectText("the imported file's name")
                try expectSymbol(";", "after the import")
                if isPublic { file.publicDependencies.append(file.dependencies.count) }
                if isWeak { file.weakDependencies.append(file.dependencies.count) }
                file.dependencies.append(name)
                imports.append(.init(name: name, isPublic: isPublic, isWeak: isWeak, location: nameAt))
            case "option":
                advance()
                let (name, value, valueAt) = try parseOptionStatement()
                if let known = ProtoFileOption.known[name] {
                    file.options[name] = try fileOptionText(value, known, name: name, at: valueAt)
                }
            case "message":
                advance()
                file.messages.append(try parseMessage(scope: package, path: [file.messages.count]))
            case "enum":
                advance()
                file.enums.append(try parseEnum(scope: package))
            case "service":
                advance()
                file.services.append(try parseService(index: file.services.count))
            case "extend":
                advance()
                file.messages += try parseExtend(scope: package, containerPath: [], nextNestedIndex: file.messages.count)
            default:
                throw error("expected a statement (message, enum, service, import, option, package, extend), found \(peek.shown)")
            }
        }
        return ProtoParsedFile(file: file, imports: imports, references: references, declarations: declarations)
    }

    /// A file option's value as ``ProtoFile/options`` keeps it.
    private func fileOptionText(_ value: Constant, _ option: ProtoFileOption, name: String, at: ProtoParsedFile.Location) throws -> String {
        switch (option.kind, value) {
        case (.string, .string(let bytes)):
            guard let text = Self.utf8(bytes) else { throw error("option \(name) is not valid UTF-8", at: at) }
            return text
        case (.bool, .identifier(let word)) where word == "true" || word == "false":
            return word
        case (.optimizeMode, .identifier(let word)) where ProtoFileOption.optimizeModes[word] != nil:
            return word
        default:
            let expected = switch option.kind {
            case .string: "a string"
            case .bool: "true or false"
            case .optimizeMode: "SPEED, CODE_SIZE or LITE_RUNTIME"
            }
            throw error("option \(name) takes \(expected)", at: at)
        }
    }

    // MARK: Services

    private mutating func parseService(index: Int) throws -> ProtoService {
        let at = location
        let name = try expectIdentifier("the service's name")
        let fullName = Self.join(package, name)
        declare(fullName, .service, at: at)
        var service = ProtoService(name: name, fullName: fullName, methods: [])
        try expectSymbol("{", "to open the service")
        while !consumeSymbol("}") {
            if consumeSymbol(";") { continue }
            if consumeKeyword("option") {
                _ = try parseOptionStatement()
                continue
            }
            guard consumeKeyword("rpc") else { throw error("expected \"rpc\", \"option\" or '}' in service \(name), found \(peek.shown)") }
            let methodAt = location
            let methodName = try expectIdentifier("the method's name")
            guard !service.methods.contains(where: { $0.name == methodName }) else {
                throw error("\"\(methodName)\" is already defined in service \"\(fullName)\"", at: methodAt)
            }
            let methodIndex = service.methods.count
            let (clientStreaming, input) = try parseMethodType(.input(service: index, method: methodIndex))
            guard consumeKeyword("returns") else { throw error("expected \"returns\", found \(peek.shown)") }
            let (serverStreaming, output) = try parseMethodType(.output(service: index, method: methodIndex))
            service.methods.append(.init(name: methodName, inputType: input, outputType: output,
                                         clientStreaming: clientStreaming, serverStreaming: serverStreaming))
            if consumeSymbol("{") {
                while !consumeSymbol("}") {
                    if consumeSymbol(";") { continue }
                    guard consumeKeyword("option") else { throw error("expected \"option\" or '}' in method \(methodName), found \(peek.shown)") }
                    _ = try parseOptionStatement()
                }
            } else {
                try expectSymbol(";", "after the method")
            }
        }
        return service
    }

    /// `( [stream] Type )`: whether it streams, and the type as written (resolved later).
    private mutating func parseMethodType(_ target: ProtoParsedFile.Target) throws -> (Bool, String) {
        try expectSymbol("(", "before the method's type")
        var streaming = false
        if isKeyword("stream"), tokens[position + 1].kind != .symbol(")"), tokens[position + 1].kind != .symbol(".") {
            advance()
            streaming = true
        }
        let at = location
        let name = try expectDottedName("a message type", allowLeadingDot: true)
        references.append(.init(name: name, scope: package, location: at, target: target))
        try expectSymbol(")", "after the method's type")
        return (streaming, name)
    }
}
