import MockServerCore

/// Where a command is being read in a response file, and the helpers a ``ScriptProtocol`` reads its
/// commands' values with, so that its errors name the file, the path and the line and column as the
/// shared commands' do.
public struct ScriptDecoding {
    /// The file's decoder, whose readers a protocol's own formats share (HTTP's endpoints).
    package let decoder: ResponseScriptDecoder
    /// The command's path, such as `responses.list.commands[1]`.
    public let path: String
    /// Where the command is written.
    public let location: JSONNode.Location
    /// What the script's protocols read from the own keys of the response the command belongs to
    /// (``ScriptResponseKeys``), by type; empty outside a response.
    package let traits: ScriptSettings

    /// An error at the command.
    public func error(_ problem: ResponseFileError.Problem) -> ResponseFileError {
        decoder.error(problem, at: location)
    }

    /// An error at `location`.
    public func error(_ problem: ResponseFileError.Problem, at location: JSONNode.Location) -> ResponseFileError {
        decoder.error(problem, at: location)
    }

    /// `value` as a string.
    ///
    /// - Throws: ``ResponseFileError/Problem/wrongType(path:expected:found:)`` naming `path`.
    public func string(_ value: JSONNode, path: String) throws(ResponseFileError) -> String {
        try decoder.string(value, path: path)
    }

    /// `value` as a duration in seconds, from 0 to a day.
    public func seconds(_ value: JSONNode, path: String) throws(ResponseFileError) -> Duration {
        guard case .number(let seconds) = value.kind else {
            throw error(.wrongType(path: path, expected: "a number of seconds", found: value.typeName), at: value.location)
        }
        return try decoder.pause(seconds, path: path, at: value.location)
    }

    /// A string, or `{"hex": …}` / `{"base64": …}`, as bytes.
    public func bytes(_ value: JSONNode, path: String) throws(ResponseFileError) -> [UInt8] {
        try decoder.bytes(value, path: path)
    }

    /// The members of the object `value`, in order.
    public func members(of value: JSONNode, path: String) throws(ResponseFileError) -> [JSONNode.Member] {
        try decoder.orderedMembers(of: value, path: path)
    }

    /// The members of the object `value`, in order, each checked against `known`.
    public func members(of value: JSONNode, path: String, known: [String]) throws(ResponseFileError) -> [JSONNode.Member] {
        try decoder.checkedMembers(of: value, path: path, known: known)
    }

    /// An array of commands (an `otherwise` branch), read as the response's own.
    public func commands(_ value: JSONNode, path: String) throws(ResponseFileError) -> [ScriptCommand] {
        guard case .array(let elements) = value.kind else {
            throw error(.wrongType(path: path, expected: "an array of commands", found: value.typeName), at: value.location)
        }
        var commands: [ScriptCommand] = []
        for (index, element) in elements.enumerated() {
            commands.append(try decoder.command(element, path: "\(path)[\(index)]", traits: traits))
        }
        return commands
    }
}

extension ScriptDecoding {
    /// A command object of a response file: its command key and value, and the companion keys beside it.
    public struct CommandObject {
        /// The command key's member, such as `"active": "$1"`.
        public let command: JSONNode.Member
        /// The other members (`otherwise`, `to`, …), each one of the protocol's companion keys.
        public let companions: [JSONNode.Member]
        /// Where the object is written.
        public let location: JSONNode.Location

        /// The companion named `key`, if present.
        public func companion(_ key: String) -> JSONNode? {
            companions.first { $0.key == key }?.value
        }
    }
}
