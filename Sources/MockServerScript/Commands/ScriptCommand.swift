import MockServerCore

/// One step of a scripted response, as written in a response file or in code.
///
/// These are the steps every script has, whatever it speaks. A protocol adds its own through
/// ``ScriptProtocol`` (FTP's `«passive»` and transfers, HTTP's `{"response": …}`, WebDAV's
/// `«webdav»`); they appear here as ``protocolCommand(_:)``, and the protocol's target offers a
/// spelling of its own for code, such as `.openPassive`.
public enum ScriptCommand: Sendable, Hashable {
    /// Sends text after substitutions (see ``ResponseTemplate``).
    case send(ResponseTemplate)
    /// Sends bytes exactly as given.
    case sendBytes([UInt8])
    /// Sends the selected file's bytes, or the server's data (`«data»` in a response file).
    case sendData
    /// Waits before the next command, without blocking any other connection.
    case pause(Duration)
    /// Closes the connection once everything before it has been sent (`«close»`).
    case close
    /// Switches this connection, and only this one, to another response set.
    case useSet(String)
    /// Selects the file named by the template for `$size`, `$file`, `«data»` and transfers. When
    /// the server has files and none has this name (or, `strict`, whenever none has it),
    /// `otherwise` runs instead of the rest of the response (when given).
    case selectFile(ResponseTemplate, otherwise: [ScriptCommand]?, strict: Bool = false)
    /// A fault on demand (`«reset»`, `«half-close»`, `«hang»`, `{"truncate": N}`, `{"dribble": rate}`).
    case fault(StreamFault)
    /// Stores the input's payload (a request's body, de-chunked; the whole unit otherwise) as the
    /// server file named by the template, and records it as an upload (`{"save": "$path"}`).
    case saveBody(ResponseTemplate)
    /// Creates an empty folder in the server's files (`{"mkdir": "$path"}`); when something is
    /// already there, `otherwise` runs instead of the rest of the response (when given).
    case makeFolder(ResponseTemplate, otherwise: [ScriptCommand]?)
    /// Deletes a file, or a folder and everything in it, from the server's files
    /// (`{"delete": "$path"}`); when nothing is there, `otherwise` runs instead of the rest (when given).
    case deleteFile(ResponseTemplate, otherwise: [ScriptCommand]?)
    /// Copies (or, `move`, moves) a file or a folder of the server's files to the path of the
    /// second template, an absolute URI or a path (`{"copy": "$path", "to": "${header:Destination}"}`,
    /// `{"move": …}`); when the source is missing, `otherwise` runs instead of the rest (when given).
    case copyFile(ResponseTemplate, to: ResponseTemplate, move: Bool, otherwise: [ScriptCommand]?)
    /// Network conditions (`{"conditions": {…}}`, written as the control API's), drawn with their
    /// probability when reached: a connection runs under them from here on, in place of its own
    /// (`null` lifts them); in an HTTP reply they last to the end of that response.
    case conditions(NetworkConditions?)
    /// A command that a protocol contributes (see ``ProtocolCommand``).
    case protocolCommand(AnyProtocolCommand)

    /// Wraps a protocol's command.
    public static func command(_ command: some ProtocolCommand) -> ScriptCommand {
        .protocolCommand(AnyProtocolCommand(command))
    }

    /// Whether the command reads or changes the server or the connection, so that it must run when
    /// the reply reaches it (after what comes before it has been sent and its pauses waited out)
    /// rather than when the reply is worked out.
    var runsWhenReached: Bool {
        switch self {
        case .useSet, .selectFile, .saveBody, .makeFolder, .deleteFile, .copyFile: true
        case .send, .sendBytes, .sendData, .pause, .close, .fault, .conditions: false
        case .protocolCommand(let command): command.base.runsWhenReached
        }
    }
}

extension ScriptCommand {
    /// `commands` with each command, those of `otherwise` branches included, as `transform` reads it.
    package static func mapping(_ commands: [ScriptCommand], _ transform: (ScriptCommand) -> ScriptCommand) -> [ScriptCommand] {
        commands.map { command in
            switch command {
            case .selectFile(let name, let otherwise?, let strict):
                .selectFile(name, otherwise: mapping(otherwise, transform), strict: strict)
            case .makeFolder(let path, let otherwise?):
                .makeFolder(path, otherwise: mapping(otherwise, transform))
            case .deleteFile(let path, let otherwise?):
                .deleteFile(path, otherwise: mapping(otherwise, transform))
            case .copyFile(let source, let destination, let move, let otherwise?):
                .copyFile(source, to: destination, move: move, otherwise: mapping(otherwise, transform))
            default:
                transform(command)
            }
        }
    }
}
