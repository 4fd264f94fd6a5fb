import MockServerCore
/// A response file, or a request for one of its sets, that cannot be used.
///
/// The description reads `FILE:LINE:COLUMN: message` when the file and location are known, the
/// form compilers use, so editors and the CLI's `--check` can point at the culprit.
public struct ResponseFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Sendable, Equatable {
        /// The file could not be read.
        case unreadable(reason: String)
        /// The file is not valid UTF-8.
        case notUTF8(reason: String)
        /// The text is not JSON (trailing commas are allowed).
        case syntax(message: String)
        /// A value has the wrong JSON type; `path` is like `responses.user.commands[2]`.
        case wrongType(path: String, expected: String, found: String)
        /// A required key is absent.
        case missingKey(path: String, key: String)
        /// A key that the format does not have (often a misspelling).
        case unknownKey(path: String, key: String, known: [String])
        /// A value of the right type that is not allowed, such as a negative pause.
        case invalidValue(path: String, reason: String)
        /// A pattern that the regular expression engine rejects.
        case invalidPattern(response: String, pattern: String, reason: String)
        /// A string command or pattern of the form `«…»` that is not a known token.
        case unknownToken(path: String, token: String, known: [String])
        /// A set lists, or falls back to, a response that the file does not define.
        case missingResponse(set: String, response: String)
        /// A set that does not exist was asked for, or named by a set switch.
        case unknownSet(name: String, available: [String])
        /// A set with no responses.
        case emptySet(name: String)
        /// A command of a protocol that the script does not speak, such as an FTP transfer in an
        /// HTTP script: `owner` is the command's protocol, `allowed` those the script's scheme allows.
        case foreignCommand(path: String, command: String, owner: String, scheme: String?, allowed: [String])
    }

    /// What is wrong.
    public let problem: Problem
    /// The file, when the script came from one.
    public var file: String?
    /// Where in the file, when known.
    public var location: JSONNode.Location?
    /// The file that ``file`` is a build's copy of, when it is a resource of a package's target
    /// (`Tests/<Target>/…`, found from the bundle's path): the one to edit, which the description
    /// names too.
    public var sourceFile: String?

    /// Creates an error.
    public init(_ problem: Problem, file: String? = nil, location: JSONNode.Location? = nil) {
        self.problem = problem
        self.file = file
        self.location = location
    }

    /// The message without file and location.
    public var message: String {
        switch problem {
        case .unreadable(let reason): "cannot read the response file: \(reason)"
        case .notUTF8(let reason): reason
        case .syntax(let message): "JSON syntax error: \(message)"
        case .wrongType(let path, let expected, let found): "\(path) must be \(expected), not \(found)"
        case .missingKey(let path, let key): "\(path.isEmpty ? "the file" : path) has no \"\(key)\""
        case .unknownKey(let path, let key, let known):
            "unknown key \"\(key)\" in \(path.isEmpty ? "the top level" : path) (known keys: \(known.joined(separator: ", ")))"
        case .invalidValue(let path, let reason): "\(path): \(reason)"
        case .invalidPattern(let response, let pattern, let reason): "response \"\(response)\" has an invalid pattern \"\(pattern)\": \(reason)"
        case .unknownToken(let path, let token, let known): "\(path): unknown token \(token) (known: \(known.joined(separator: ", ")))"
        case .missingResponse(let set, let response): "set \"\(set)\" names the response \"\(response)\", which the file does not define"
        case .unknownSet(let name, let available): "there is no set \"\(name)\" (sets: \(available.map { "\"\($0)\"" }.joined(separator: ", ")))"
        case .emptySet(let name): "set \"\(name)\" has no responses"
        case .foreignCommand(let path, let command, let owner, let scheme, let allowed):
            "\(path): \(command) is a command of \(owner), and this script "
                + (scheme.map { "(scheme \"\($0)\") " } ?? "has no scheme, so it ")
                + (allowed.isEmpty ? "uses only the shared commands" : (scheme == nil ? "may use the commands of " : "speaks ") + allowed.joined(separator: " and "))
        }
    }

    /// `FILE:LINE:COLUMN: message`, leaving out what is not known; for a copy of a resource, then
    /// ` (a copy of SOURCE:LINE:COLUMN, the file to edit)`.
    public var description: String {
        var prefix = file.map { "\($0):" } ?? ""
        if let location { prefix += "\(location.line):\(location.column):" }
        let text = prefix.isEmpty ? message : "\(prefix) \(message)"
        guard let sourceFile else { return text }
        return text + ResourceSource.note(forCopy: file ?? "", source: sourceFile, place: location.map { ":\($0.line):\($0.column)" } ?? "")
    }
}
