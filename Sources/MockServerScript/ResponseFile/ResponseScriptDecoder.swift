import MockServerCore
import Foundation

/// Turns a parsed response file into a ``ResponseScript``, checking every value's type and meaning.
///
/// The shared commands are read here; every other command comes from a ``ScriptProtocol`` of the
/// vocabulary that the script's `scheme` (or, without one, its framing) allows.
package final class ResponseScriptDecoder {
    package let file: String?
    /// The source of `file` when it is a build's copy of a resource, named by every error.
    package var sourceFile: String?
    package let vocabulary: ScriptVocabulary
    /// The protocols whose commands this script may use, known once its scheme and framing are read.
    private var allowed: [any ScriptProtocol] = []
    /// The script's scheme, for error messages.
    private var scheme: String?
    /// The protocol that claims the script's scheme, whose reading of the shared commands it gets.
    private var claimant: (any ScriptProtocol)?
    /// The script's framing and the output type of the driver its connections get: a protocol's
    /// command that hands its driver another type cannot run in this script.
    private var framing = Framing.lines
    private var driverOutput: any Sendable.Type = Never.self
    private var switches: [SetSwitch] = []
    /// What the file may not mean as written, in file order: a `"<<close>>"` sent as text.
    private var warnings: [ResponseFileError] = []

    package init(file: String?, vocabulary: ScriptVocabulary) {
        self.file = file
        self.vocabulary = vocabulary
    }

    /// The string tokens every script may use.
    static let sharedTokens = ["«close»", "«data»", "«reset»", "«half-close»", "«hang»"]
    /// The command keys every script may use.
    static let sharedKeys = ["send", "hex", "base64", "pause", "set", "file", "save", "truncate", "dribble", "mkdir", "delete", "copy", "move", "conditions"]
    /// The keys a shared command object may have beside its command key.
    static func sharedCompanions(of key: String) -> [String] {
        switch key {
        case "file": ["otherwise", "strict"]
        case "mkdir", "delete": ["otherwise"]
        case "copy", "move": ["to", "otherwise"]
        default: []
        }
    }
    /// The longest pause accepted, in seconds.
    static let maximumPause = 86_400.0

    private struct SetSwitch {
        let target: String
        let path: String
        let location: JSONNode.Location
    }

    package func error(_ problem: ResponseFileError.Problem, at location: JSONNode.Location?) -> ResponseFileError {
        var error = ResponseFileError(problem, file: file, location: location)
        error.sourceFile = sourceFile
        return error
    }

    func decode(_ json: [UInt8]) throws(ResponseFileError) -> ResponseScript {
        let root: JSONNode
        do {
            root = try JSONReader.parse(json)
        } catch {
            let problem: ResponseFileError.Problem = error.message.hasPrefix("the file is not valid UTF-8")
                ? .notUTF8(reason: error.message) : .syntax(message: error.message)
            throw self.error(problem, at: error.location)
        }
        return try decode(root: root)
    }

    /// Decodes a script from a JSON object already read: a whole file's, or one nested in another
    /// file (an endpoint's `"upgrade"`), whose locations are then the enclosing file's.
    package func decode(root: JSONNode) throws(ResponseFileError) -> ResponseScript {
        let settingKeys = vocabulary.protocols.flatMap(\.settingKeys)
        let top = try members(of: root, path: "the file", known: ["scheme", "framing", "comment", "data", "files", "conditions", "sets", "responses"] + settingKeys)
        let scheme = try top["scheme"].map { value throws(ResponseFileError) in try string(value, path: "scheme") }
        _ = try top["comment"].map { value throws(ResponseFileError) in try string(value, path: "comment") }
        let framing = try top["framing"].map { value throws(ResponseFileError) -> Framing in
            let name = try string(value, path: "framing")
            guard let framing = Framing(rawValue: name) else {
                throw error(.invalidValue(path: "framing", reason: "framing is one of \(Framing.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(name)\""), at: value.location)
            }
            return framing
        }
        self.scheme = scheme
        let claimant = vocabulary.claimant(ofScheme: scheme)
        if let scheme, claimant == nil, let value = top["scheme"] {
            let known = vocabulary.schemes
            throw error(.invalidValue(path: "scheme", reason: "no protocol claims the scheme \"\(scheme)\"; "
                                        + (known.isEmpty ? "this vocabulary has no protocols" : "the known schemes are \(known.joined(separator: ", "))")),
                        at: value.location)
        }
        if let framing, let claimant, !claimant.framings.contains(framing), let value = top["framing"] {
            let framings = Framing.allCases.filter(claimant.framings.contains).map(\.rawValue)
            throw error(.invalidValue(path: "framing", reason: "a script " + (scheme.map { "of scheme \"\($0)\"" } ?? "without a scheme")
                                        + " is framed as \(framings.joined(separator: " or ")), not \"\(framing.rawValue)\""), at: value.location)
        }
        allowed = vocabulary.protocols(forScheme: scheme, framing: framing ?? vocabulary.framing(forScheme: scheme))
        self.claimant = claimant
        self.framing = framing ?? vocabulary.framing(forScheme: scheme)
        driverOutput = ScriptConnections.of(claimant, framing: self.framing).outputType
        let data = try top["data"].map { value throws(ResponseFileError) in try bytes(value, path: "data") }
        var settings = ScriptSettings()
        let rootMembers: [JSONNode.Member]
        if case .object(let members) = root.kind { rootMembers = members } else { rootMembers = [] }
        var owned: [(owner: any ScriptProtocol, members: [JSONNode.Member])] = []
        for member in rootMembers where settingKeys.contains(member.key) {
            guard let owner = allowed.first(where: { $0.settingKeys.contains(member.key) }) else {
                try rejectForeign("\"\(member.key)\"", owner: vocabulary.protocols.first { $0.settingKeys.contains(member.key) }, at: member.keyLocation, path: member.key)
                continue
            }
            if let index = owned.firstIndex(where: { $0.owner.name == owner.name }) {
                owned[index].members.append(member)
            } else {
                owned.append((owner, [member]))
            }
        }
        for (owner, members) in owned {
            let decoding = ScriptDecoding(decoder: self, path: "", location: members[0].value.location, traits: ScriptSettings())
            settings = settings.merging(ScriptSettings([try owner.settings(members, in: decoding)]))
        }
        if let value = top["conditions"] { settings[NetworkConditions.self] = try conditions(value) }
        var files: [String: [UInt8]] = [:]
        if let filesValue = top["files"] {
            for member in try orderedMembers(of: filesValue, path: "files") {
                guard !member.key.isEmpty else {
                    throw error(.invalidValue(path: "files", reason: "a file name cannot be empty"), at: member.keyLocation)
                }
                files[member.key] = try bytes(member.value, path: "files.\(member.key)")
            }
        }
        guard let responsesValue = top["responses"] else { throw error(.missingKey(path: "", key: "responses"), at: root.location) }

        var responses: [String: ResponseEntry] = [:]
        var responseOrder: [String] = []
        for member in try orderedMembers(of: responsesValue, path: "responses") {
            responses[member.key] = try entry(named: member.key, member.value)
            responseOrder.append(member.key)
        }

        var sets: [String: ResponseSet] = [:]
        var problems: [String: ResponseFileError] = [:]
        var setNames: [String] = []
        if let setsValue = top["sets"] {
            for member in try orderedMembers(of: setsValue, path: "sets") {
                setNames.append(member.key)
                switch try set(named: member.key, member.value, responses: responses) {
                case .success(let set): sets[member.key] = set
                case .failure(let problem): problems[member.key] = problem
                }
            }
        } else {
            setNames = ["default"]
            sets["default"] = ResponseSet(name: "default", entries: responseOrder.compactMap { responses[$0] })
        }

        for change in switches where sets[change.target] == nil {
            if let problem = problems[change.target] { throw problem }
            throw error(.unknownSet(name: change.target, available: setNames), at: change.location)
        }
        let scriptFraming = framing ?? vocabulary.framing(forScheme: scheme)
        return ResponseScript(scheme: scheme, scriptProtocol: claimant, framing: scriptFraming, data: data, files: files, settings: settings, file: file,
                              setNames: setNames, sets: sets, setProblems: problems, warnings: warnings,
                              variables: ScriptVocabulary(vocabulary.protocols(forScheme: scheme, framing: scriptFraming)).variables)
    }

    // MARK: Responses and sets

    private func entry(named name: String, _ value: JSONNode) throws(ResponseFileError) -> ResponseEntry {
        let path = "responses.\(name)"
        let owners = allowed.compactMap { $0 as? any ScriptResponseKeys }
        let known = ["pattern", "commands", "comment"] + owners.flatMap(\.responseKeys)
        for member in try orderedMembers(of: value, path: path) where !known.contains(member.key) {
            let owner = vocabulary.protocols.first { ($0 as? any ScriptResponseKeys)?.responseKeys.contains(member.key) == true }
            try rejectForeign("\"\(member.key)\"", owner: owner, at: member.keyLocation, path: "\(path).\(member.key)")
        }
        let members = try checkedMembers(of: value, path: path, known: known)
        var fields: [String: JSONNode] = [:]
        for member in members { fields[member.key] = member.value }
        guard let patternValue = fields["pattern"] else { throw error(.missingKey(path: path, key: "pattern"), at: value.location) }
        guard let commandsValue = fields["commands"] else { throw error(.missingKey(path: path, key: "commands"), at: value.location) }
        let source = try string(patternValue, path: "\(path).pattern")
        let pattern: InputPattern
        warnLookalike(source, among: [InputPattern.initial.source], is: "a pattern that matches that text", kind: "token",
                      path: "\(path).pattern", at: patternValue.location)
        if isToken(source) && source != InputPattern.initial.source {
            throw error(.unknownToken(path: "\(path).pattern", token: source, known: [InputPattern.initial.source]), at: patternValue.location)
        }
        do {
            pattern = try InputPattern(source)
        } catch {
            throw self.error(.invalidPattern(response: name, pattern: source, reason: error.reason), at: patternValue.location)
        }
        var traits: [any Sendable] = []
        for owner in owners {
            let owned = members.filter { owner.responseKeys.contains($0.key) }
            guard !owned.isEmpty else { continue }
            let decoding = ScriptDecoding(decoder: self, path: path, location: value.location, traits: ScriptSettings())
            traits += try owner.responseTraits(owned, pattern: pattern, at: patternValue.location, in: decoding)
        }
        guard case .array(let elements) = commandsValue.kind else {
            throw error(.wrongType(path: "\(path).commands", expected: "an array", found: commandsValue.typeName), at: commandsValue.location)
        }
        var commands: [ScriptCommand] = []
        let entryTraits = ScriptSettings(traits)
        for (index, element) in elements.enumerated() {
            commands.append(try command(element, path: "\(path).commands[\(index)]", traits: entryTraits))
        }
        let comment = try fields["comment"].map { value throws(ResponseFileError) in try string(value, path: "\(path).comment") }
        return ResponseEntry(name: name, pattern: pattern, commands: commands, comment: comment, traits: traits)
    }

    private func set(named name: String, _ value: JSONNode, responses: [String: ResponseEntry]) throws(ResponseFileError) -> Result<ResponseSet, ResponseFileError> {
        let path = "sets.\(name)"
        let fields = try members(of: value, path: path, known: ["responses", "comment", "fallback"])
        guard let listValue = fields["responses"] else { throw error(.missingKey(path: path, key: "responses"), at: value.location) }
        guard case .array(let elements) = listValue.kind else {
            throw error(.wrongType(path: "\(path).responses", expected: "an array of response names", found: listValue.typeName), at: listValue.location)
        }
        guard !elements.isEmpty else { throw error(.emptySet(name: name), at: listValue.location) }
        let comment = try fields["comment"].map { value throws(ResponseFileError) in try string(value, path: "\(path).comment") }
        var entries: [ResponseEntry] = []
        var missing: ResponseFileError?
        for (index, element) in elements.enumerated() {
            let responseName = try string(element, path: "\(path).responses[\(index)]")
            if let entry = responses[responseName] {
                entries.append(entry)
            } else if missing == nil {
                missing = error(.missingResponse(set: name, response: responseName), at: element.location)
            }
        }
        var fallback: ResponseEntry?
        if let fallbackValue = fields["fallback"] {
            let responseName = try string(fallbackValue, path: "\(path).fallback")
            fallback = responses[responseName]
            if fallback == nil && missing == nil {
                missing = error(.missingResponse(set: name, response: responseName), at: fallbackValue.location)
            }
        }
        if let missing { return .failure(missing) }
        return .success(ResponseSet(name: name, entries: entries, fallback: fallback, comment: comment))
    }

    /// One command; `traits` are those of the response it belongs to.
    func command(_ value: JSONNode, path: String, traits: ScriptSettings) throws(ResponseFileError) -> ScriptCommand {
        let decoding = ScriptDecoding(decoder: self, path: path, location: value.location, traits: traits)
        switch value.kind {
        case .string(let text):
            guard isToken(text) else {
                warnLookalike(text, among: Self.sharedTokens + allowed.flatMap(\.tokens) + vocabulary.protocols.flatMap(\.tokens),
                              is: "sent as text", kind: "command", path: path, at: value.location)
                return .send(ResponseTemplate(text))
            }
            switch text {
            case "«close»": return .close
            case "«data»": return claimant?.sharedCommand(.sendData) ?? .sendData
            case "«reset»": return .fault(.reset)
            case "«half-close»": return .fault(.halfClose)
            case "«hang»": return .fault(.hang)
            default:
                if let owner = allowed.first(where: { $0.tokens.contains(text) }) {
                    return try fitting(try owner.command(token: text, in: decoding), text, owner: owner, at: value.location, path: path)
                }
                try rejectForeign(text, owner: vocabulary.protocols.first { $0.tokens.contains(text) }, at: value.location, path: path)
                throw error(.unknownToken(path: path, token: text, known: Self.sharedTokens + allowed.flatMap(\.tokens)), at: value.location)
            }
        case .number(let seconds):
            return .pause(try pause(seconds, path: path, at: value.location))
        case .object(let members):
            let companionNames = Set(["otherwise", "strict", "to"] + vocabulary.protocols.flatMap { scriptProtocol in
                scriptProtocol.keys.flatMap { scriptProtocol.companionKeys(of: $0) }
            })
            let main = members.filter { !companionNames.contains($0.key) }
            let knownKeys = Self.sharedKeys + allowed.flatMap(\.keys)
            guard main.count == 1, let member = main.first else {
                throw error(.invalidValue(path: path, reason: "a command object has one command key (\(knownKeys.joined(separator: ", "))) "
                                          + "and the keys that go with it, such as \"otherwise\"; this one has \(main.count) command keys"), at: value.location)
            }
            let owner = allowed.first { $0.keys.contains(member.key) }
            if owner == nil && !Self.sharedKeys.contains(member.key) {
                try rejectForeign("{\"\(member.key)\": …}", owner: vocabulary.protocols.first { $0.keys.contains(member.key) }, at: member.keyLocation, path: path)
                throw error(.unknownKey(path: path, key: member.key, known: knownKeys + ["otherwise"]), at: member.keyLocation)
            }
            let companionsAllowed = owner?.companionKeys(of: member.key) ?? Self.sharedCompanions(of: member.key)
            let companions = members.filter { $0.key != member.key }
            for companion in companions where !companionsAllowed.contains(companion.key) {
                throw error(.unknownKey(path: path, key: companion.key, known: [member.key] + companionsAllowed), at: companion.keyLocation)
            }
            let object = ScriptDecoding.CommandObject(command: member, companions: companions, location: value.location)
            if let owner {
                return try fitting(try owner.command(key: member.key, object: object, in: decoding), "{\"\(member.key)\": …}", owner: owner, at: member.keyLocation, path: path)
            }
            return try sharedCommand(object, in: decoding)
        default:
            throw error(.wrongType(path: path, expected: "a string, a number of seconds or a command object", found: value.typeName), at: value.location)
        }
    }

    /// `command`, which `owner` read from `text`, when the script's driver can carry it out: it hands
    /// its driver nothing of its own, or what this script's driver takes.
    private func fitting(_ command: ScriptCommand, _ text: String, owner: any ScriptProtocol, at location: JSONNode.Location,
                         path: String) throws(ResponseFileError) -> ScriptCommand {
        guard case .protocolCommand(let protocolCommand) = command, !protocolCommand.base.fits(driverOutput) else { return command }
        throw error(.invalidValue(path: path, reason: "\(text) is a command of \(owner.name) for connections this script does not have: "
                                    + "it is framed as \(framing.rawValue)" + (scheme.map { " (scheme \"\($0)\")" } ?? "")), at: location)
    }

    /// Throws when `command` belongs to `owner`, a protocol this script does not speak.
    private func rejectForeign(_ command: String, owner: (any ScriptProtocol)?, at location: JSONNode.Location, path: String) throws(ResponseFileError) {
        guard let owner else { return }
        throw error(.foreignCommand(path: path, command: command, owner: owner.name, scheme: scheme,
                                    allowed: allowed.map(\.name)), at: location)
    }

    /// A shared command object: `send`, `hex`, `base64`, `pause`, `set`, `file`, `save`, the faults
    /// and the file commands.
    private func sharedCommand(_ object: ScriptDecoding.CommandObject, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        let member = object.command
        let path = decoding.path
        let inner = "\(path).\(member.key)"
        let otherwise = try object.companion("otherwise").map { value throws(ResponseFileError) in
            try decoding.commands(value, path: "\(path).otherwise")
        }
        switch member.key {
        case "send": return .send(ResponseTemplate(try string(member.value, path: inner)))
        case "hex", "base64":
            let command = ScriptCommand.sendBytes(try bytes(.init(kind: .object([member]), location: object.location), path: path))
            return claimant?.sharedCommand(command) ?? command
        case "pause":
            guard case .number(let seconds) = member.value.kind else {
                throw error(.wrongType(path: inner, expected: "a number of seconds", found: member.value.typeName), at: member.value.location)
            }
            return .pause(try pause(seconds, path: inner, at: member.value.location))
        case "conditions":
            if case .null = member.value.kind { return .conditions(nil) }
            return .conditions(try conditions(member.value, path: inner))
        case "set":
            let target = try string(member.value, path: inner)
            switches.append(SetSwitch(target: target, path: inner, location: member.value.location))
            return .useSet(target)
        case "file":
            var strict = false
            if let strictValue = object.companion("strict") {
                guard case .bool(let flag) = strictValue.kind else {
                    throw error(.wrongType(path: "\(path).strict", expected: "true or false", found: strictValue.typeName), at: strictValue.location)
                }
                strict = flag
            }
            return .selectFile(ResponseTemplate(try string(member.value, path: inner)), otherwise: otherwise, strict: strict)
        case "save":
            return .saveBody(ResponseTemplate(try string(member.value, path: inner)))
        case "mkdir":
            return .makeFolder(ResponseTemplate(try string(member.value, path: inner)), otherwise: otherwise)
        case "delete":
            return .deleteFile(ResponseTemplate(try string(member.value, path: inner)), otherwise: otherwise)
        case "copy", "move":
            guard let to = object.companion("to") else { throw error(.missingKey(path: path, key: "to"), at: object.location) }
            return .copyFile(ResponseTemplate(try string(member.value, path: inner)), to: ResponseTemplate(try string(to, path: "\(path).to")),
                             move: member.key == "move", otherwise: otherwise)
        default: // "truncate", "dribble"
            guard case .number(let number) = member.value.kind, number >= (member.key == "truncate" ? 0 : 1),
                  number <= 1e12, number == number.rounded() else {
                throw error(.invalidValue(path: inner, reason: member.key == "truncate" ? "a byte count of 0 or more"
                                                                                         : "a whole number of bytes per second, 1 or more"), at: member.value.location)
            }
            return .fault(member.key == "truncate" ? .truncate(bytes: Int(number)) : .dribble(bytesPerSecond: Int(number)))
        }
    }

    package func pause(_ seconds: Double, path: String, at location: JSONNode.Location) throws(ResponseFileError) -> Duration {
        guard seconds >= 0, seconds <= Self.maximumPause else {
            throw error(.invalidValue(path: path, reason: "a pause must be from 0 to \(Int(Self.maximumPause)) seconds, not \(seconds)"), at: location)
        }
        return .rounded(seconds: seconds)
    }

    // MARK: Values

    /// A string, or `{"hex": …}` / `{"base64": …}`, as bytes.
    package func bytes(_ value: JSONNode, path: String) throws(ResponseFileError) -> [UInt8] {
        if case .string(let text) = value.kind { return Array(text.utf8) }
        let fields = try members(of: value, path: path, known: ["hex", "base64"])
        if let hex = fields["hex"] {
            let text = try string(hex, path: "\(path).hex")
            guard let decoded = Self.decodeHex(text) else {
                throw error(.invalidValue(path: "\(path).hex", reason: "hex data must be pairs of hexadecimal digits (spaces allowed)"), at: hex.location)
            }
            return decoded
        }
        if let base64 = fields["base64"] {
            let text = try string(base64, path: "\(path).base64")
            guard let decoded = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                throw error(.invalidValue(path: "\(path).base64", reason: "not valid base64"), at: base64.location)
            }
            return Array(decoded)
        }
        throw error(.missingKey(path: path, key: "hex\" or \"base64"), at: value.location)
    }

    static func decodeHex(_ text: String) -> [UInt8]? {
        let digits = text.unicodeScalars.filter { !$0.properties.isWhitespace }.map { Character($0) }
        guard digits.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = digits[index].hexDigitValue, let low = digits[index + 1].hexDigitValue else { return nil }
            result.append(UInt8(high << 4 | low))
            index += 2
        }
        return result
    }

    private func isToken(_ text: String) -> Bool { text.hasPrefix("«") && text.hasSuffix("»") && text.count >= 2 }

    /// Warns when `text` spells one of `tokens` with ASCII angle brackets (`<<close>>`,
    /// `<< Close >>`), which makes it `what` (text sent, or a pattern matched) instead of the token.
    private func warnLookalike(_ text: String, among tokens: [String], is what: String, kind: String, path: String, at location: JSONNode.Location) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("<<"), trimmed.hasSuffix(">>"), trimmed.count > 4 else { return }
        let name = trimmed.dropFirst(2).dropLast(2).trimmingCharacters(in: .whitespaces).lowercased()
        guard let token = tokens.first(where: { $0.dropFirst().dropLast().lowercased() == name }) else { return }
        let spelled = token.dropFirst().dropLast()
        warnings.append(error(.invalidValue(path: path, reason: "\"\(text)\" is \(what); the \(kind) it resembles is \(token): write \"\(token)\" "
                                            + "(or \"\\u00ab\(spelled)\\u00bb\"; on a Mac, « is Option-\\ and » is Option-Shift-\\)"), at: location))
    }

    package func string(_ value: JSONNode, path: String) throws(ResponseFileError) -> String {
        guard case .string(let text) = value.kind else {
            throw error(.wrongType(path: path, expected: "a string", found: value.typeName), at: value.location)
        }
        return text
    }

    package func orderedMembers(of value: JSONNode, path: String) throws(ResponseFileError) -> [JSONNode.Member] {
        guard case .object(let members) = value.kind else {
            throw error(.wrongType(path: path, expected: "an object", found: value.typeName), at: value.location)
        }
        return members
    }

    /// The members of the object `value`, in order, each checked against `known`.
    func checkedMembers(of value: JSONNode, path: String, known: [String]) throws(ResponseFileError) -> [JSONNode.Member] {
        let members = try orderedMembers(of: value, path: path)
        for member in members where !known.contains(member.key) {
            throw error(.unknownKey(path: path == "the file" ? "" : path, key: member.key, known: known), at: member.keyLocation)
        }
        return members
    }

    /// The members of the object `value` by key, each checked against `known`.
    package func members(of value: JSONNode, path: String, known: [String]) throws(ResponseFileError) -> [String: JSONNode] {
        var result: [String: JSONNode] = [:]
        for member in try checkedMembers(of: value, path: path, known: known) { result[member.key] = member.value }
        return result
    }

    /// A file's `conditions`, as the control API's `PUT /conditions` reads them; a problem is an
    /// error at the key or value at fault.
    package func conditions(_ value: JSONNode, path: String = "conditions") throws(ResponseFileError) -> NetworkConditions {
        do {
            return try NetworkConditionsJSON.decode(value)
        } catch {
            throw self.error(.invalidValue(path: path, reason: error.message), at: error.location)
        }
    }
}
