import MockServerCore
import Foundation

/// A loaded response script: named sets of responses, the scheme they speak and optional data.
///
/// Load one from a JSON response file (the original MockServer's format, trailing commas and all,
/// plus the extensions in `Docs/ResponseFormat.md`) or build one in code, then make a
/// ``PatternResponder`` for one of its sets.
public struct ResponseScript: Sendable {
    /// The `scheme` the file declares (`ftp`, `http`, …), if any.
    public let scheme: String?
    /// How input is cut into units: the file's `framing`, or what its `scheme` implies.
    public let framing: Framing
    /// The protocol of its vocabulary that claims its `scheme` (for no scheme, the one that serves
    /// scripts without one), which says how a server serves it; `nil` when none did.
    package let scriptProtocol: (any ScriptProtocol)?
    /// The bytes the file declares under `data`, if any; the server's ``MockServer/data`` defaults to them.
    public let data: [UInt8]?
    /// The files the script declares under `files` (name → bytes); a server starts with them as
    /// its ``MockServer/files``.
    public let files: [String: [UInt8]]
    /// The top-level settings its protocols read, each protocol's in its own type (WebSocket's
    /// `path` and `subprotocols`, FTP's `upload-settle`), as each decoded them
    /// (``ScriptProtocol/settings(_:in:)``), and the file's ``conditions``.
    public let settings: ScriptSettings
    /// The file the script came from, if any.
    public let file: String?
    /// The substitutions its protocols add (FTP's `$pasv`), by name: those of the vocabulary's
    /// protocols that its `scheme` and framing allow, as for their commands.
    public let variables: [String: ScriptProtocolVariable]
    /// The sets' names, in the order they were written.
    public let setNames: [String]
    private let sets: [String: ResponseSet]
    private let setProblems: [String: ResponseFileError]
    /// What the file may not mean as written, in file order, each with its file, line and column:
    /// a string command `"<<close>>"`, which is sent as text, names the command it resembles
    /// (`«close»`), and a pattern `"<<initial>>"` the token. `mockserver --check` prints them; they do not stop a load or ``validate()``.
    public let warnings: [ResponseFileError]

    /// The network conditions the file's top-level `conditions` gives every connection of a server
    /// that starts with this script (unless the server's configuration gives its own); `nil` when it
    /// gives none.
    ///
    /// ```json
    /// {"conditions": {"toClient": {"latency": 0.2, "bytesPerSecond": 50000}}, "responses": {…}}
    /// ```
    public var conditions: NetworkConditions? { settings[NetworkConditions.self] }

    /// Creates a script from sets built in code.
    ///
    /// - Parameter vocabulary: the protocols whose schemes imply a framing, when `framing` is `nil`
    ///   (`import MockServer` gives a form of this initializer that uses the standard protocols).
    public init(sets: [ResponseSet], scheme: String? = nil, framing: Framing? = nil, data: [UInt8]? = nil, files: [String: [UInt8]] = [:],
                settings: ScriptSettings = ScriptSettings(), vocabulary: ScriptVocabulary) {
        self.scheme = scheme
        self.scriptProtocol = vocabulary.claimant(ofScheme: scheme)
        let framing = framing ?? vocabulary.framing(forScheme: scheme)
        self.framing = framing
        self.variables = ScriptVocabulary(vocabulary.protocols(forScheme: scheme, framing: framing)).variables
        self.data = data
        self.files = files
        self.settings = settings
        self.file = nil
        self.setNames = sets.map(\.name)
        // The protocol reads the shared commands of a script built in code as it does a file's
        // (WebSocket's byte sends are binary messages).
        let adopted = scriptProtocol.map { claimant in sets.map { $0.mappingCommands(claimant.sharedCommand) } } ?? sets
        self.sets = Dictionary(adopted.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.setProblems = [:]
        self.warnings = []
    }

    init(scheme: String?, scriptProtocol: (any ScriptProtocol)?, framing: Framing, data: [UInt8]?, files: [String: [UInt8]], settings: ScriptSettings,
         file: String?, setNames: [String],
         sets: [String: ResponseSet], setProblems: [String: ResponseFileError], warnings: [ResponseFileError] = [], variables: [String: ScriptProtocolVariable]) {
        self.scheme = scheme
        self.scriptProtocol = scriptProtocol
        self.variables = variables
        self.framing = framing
        self.data = data
        self.files = files
        self.settings = settings
        self.file = file
        self.setNames = setNames
        self.sets = sets
        self.setProblems = setProblems
        self.warnings = warnings
    }

    /// Loads a response file.
    ///
    /// A set that names a response the file does not define does not stop the file loading (the
    /// original's sample files have such sets); asking for that set throws, and ``validate()``
    /// reports it. Every other problem throws here.
    ///
    /// - Parameter vocabulary: the protocols whose commands the file may use, as its `scheme` allows.
    /// - Throws: ``ResponseFileError`` with the file, and the line and column where known; for a
    ///   copy of a package's resource (`Bundle.module`), the source file too.
    public init(contentsOf url: URL, vocabulary: ScriptVocabulary) throws(ResponseFileError) {
        // Errors name the file as the caller did (a relative path stays relative) and, for a copy of
        // a resource, its source.
        let decoder = ResponseScriptDecoder(file: url.relativePath, vocabulary: vocabulary)
        decoder.sourceFile = ResourceSource.sourceFile(ofCopy: url.path)
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: url))
        } catch {
            throw decoder.error(.unreadable(reason: (error as NSError).localizedDescription), at: nil)
        }
        self = try decoder.decode(bytes)
    }

    /// Loads a response script from JSON text.
    ///
    /// - Parameters:
    ///   - json: the file's bytes.
    ///   - file: the name to give in errors.
    ///   - vocabulary: the protocols whose commands the script may use, as its `scheme` allows.
    /// - Throws: ``ResponseFileError`` with the line and column where known.
    public init(json: [UInt8], file: String? = nil, vocabulary: ScriptVocabulary) throws(ResponseFileError) {
        self = try ResponseScriptDecoder(file: file, vocabulary: vocabulary).decode(json)
    }

    /// Loads a response script from JSON text.
    ///
    /// - Throws: ``ResponseFileError`` with the line and column where known.
    public init(json: String, file: String? = nil, vocabulary: ScriptVocabulary) throws(ResponseFileError) {
        try self.init(json: Array(json.utf8), file: file, vocabulary: vocabulary)
    }

    /// The set a connection starts on when nothing names one: `default`, or else the first written.
    package var startingSet: String {
        setNames.contains("default") ? "default" : setNames.first ?? "default"
    }

    /// The set named `name`.
    ///
    /// - Throws: ``ResponseFileError`` when there is no such set (the message lists those there
    ///   are) or when the set names a response the file does not define.
    public func set(named name: String) throws(ResponseFileError) -> ResponseSet {
        if let set = sets[name] { return set }
        if let problem = setProblems[name] { throw problem }
        throw ResponseFileError(.unknownSet(name: name, available: setNames), file: file)
    }

    /// Every problem that loading let pass (sets naming missing responses), in file order.
    public var problems: [ResponseFileError] {
        setProblems.values.sorted { ($0.location ?? JSONNode.Location(line: 0, column: 0)) < ($1.location ?? JSONNode.Location(line: 0, column: 0)) }
    }

    /// Throws the first of ``problems``, for a strict check such as `mockserver --check`.
    public func validate() throws(ResponseFileError) {
        if let first = problems.first { throw first }
    }

    /// The first command of the script, `otherwise` branches included, that hands its driver
    /// something a driver whose output is `outputType` does not take, with the set and response
    /// it is in; `nil` when every command fits. A file's load refuses such a command at its place;
    /// a script built in code is checked with this when a server takes it.
    package func misfit(for outputType: any Sendable.Type) -> (set: String, response: String, command: ScriptCommand)? {
        firstCommand { command in
            guard case .protocolCommand(let wrapped) = command else { return false }
            return !wrapped.base.fits(outputType)
        }
    }

    /// The first command of the script, `otherwise` branches included, that `matches`, with the set
    /// and response it is in; `nil` when there is none.
    package func firstCommand(where matches: (ScriptCommand) -> Bool) -> (set: String, response: String, command: ScriptCommand)? {
        func first(in commands: [ScriptCommand]) -> ScriptCommand? {
            for command in commands {
                if matches(command) { return command }
                switch command {
                case .selectFile(_, let otherwise?, _), .makeFolder(_, let otherwise?), .deleteFile(_, let otherwise?), .copyFile(_, _, _, let otherwise?):
                    if let found = first(in: otherwise) { return found }
                default: continue
                }
            }
            return nil
        }
        for name in setNames {
            guard let set = sets[name] else { continue }
            for entry in set.entries + (set.fallback.map { [$0] } ?? []) {
                if let command = first(in: entry.commands) { return (name, entry.name, command) }
            }
        }
        return nil
    }
}
