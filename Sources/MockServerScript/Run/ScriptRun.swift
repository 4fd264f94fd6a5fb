import Foundation
@_spi(HotPath) import MockServerCore
import MockServerFileSystem

/// One reply being carried out: the interpreter of the commands every script shares, and what a
/// ``ProtocolCommand`` sees of the server and the connection.
///
/// Commands that produce output are worked out with the reply; commands that read or change the
/// server or the connection (a set switch, a file selection, the file commands, most protocol
/// commands) run when the reply reaches them, after what comes before them has been sent and its
/// pauses waited out, so that the values they set are current for what follows. The same
/// interpreter serves line connections, WebSocket messages and HTTP exchanges: it works out
/// ``ReplyStep``s of the output type of the driver that asks, which a ``ReplyPerformer`` carries out.
public final class ScriptRun: Sendable {
    /// The connection's number, as in the transcript.
    public let connectionID: Int
    /// What the connection keeps across replies.
    public let storage: ScriptConnectionStorage
    /// The server the script runs on.
    package let server: any ScriptServer
    /// The substitution values that do not change during the reply.
    private let base: SubstitutionContext
    private let selected = Locked<String?>(nil)

    /// Creates the run of one reply.
    package init(server: any ScriptServer, base: SubstitutionContext, connectionID: Int, storage: ScriptConnectionStorage) {
        self.server = server
        self.base = base
        self.connectionID = connectionID
        self.storage = storage
    }

    /// The file the reply selected (``ScriptCommand/selectFile(_:otherwise:strict:)``), if any.
    public var selectedFile: String? { selected.withLock { $0 } }

    /// The substitution values now: the selected file, and the values the connection's protocols set.
    public var values: SubstitutionContext {
        var context = server.substitutionContext(base: base, selectedFile: selectedFile)
        let own = storage.protocolValues
        if !own.isEmpty { context.protocolValues = context.protocolValues.merging(own) }
        return context
    }

    /// `template` rendered for `match` with the current values.
    public func render(_ template: ResponseTemplate, match: ScriptRun.Match) -> [UInt8] {
        template.constantBytes ?? template.render(input: match.input, groups: match.groups, context: values)
    }

    /// `template` rendered as text (a name, a path, an address).
    public func text(_ template: ResponseTemplate, match: ScriptRun.Match) -> String {
        String(decoding: render(template, match: match), as: UTF8.self)
    }

    /// Records `event` in the transcript as this connection's.
    package func record(_ event: Transcript.Event) {
        server.environment.record(event, connection: connectionID)
    }

    /// Logs a message tagged with this connection.
    public func log(_ level: MockServerLogger.Level, _ message: @autoclosure () -> String) {
        server.environment.logger.log(level, message(), connection: connectionID)
    }

    /// The steps of `commands` answering `match`, for a driver whose output is `Output`: the reply
    /// itself, or an `otherwise` branch.
    public func steps<Output: Sendable>(for commands: [ScriptCommand], match: ScriptRun.Match, as output: Output.Type = Output.self) -> [ReplyStep<Output>] {
        steps(for: commands[...], match: match, now: false)
    }

    /// The steps of `commands` when they only send constant bytes, pause, close or fail (most
    /// responses of a line script), worked out once, when a response is made, so that a reply of
    /// them needs no run; `nil` otherwise.
    package static func constantSteps(of commands: [ScriptCommand]) -> [ReplyStep<Never>]? {
        var steps: [ReplyStep<Never>] = []
        for command in commands {
            guard let step = constantStep(of: command) else { return nil }
            steps.append(step)
        }
        return steps
    }

    /// The step of `command` when it only sends constant bytes, pauses, closes or fails; `nil` otherwise.
    package static func constantStep(of command: ScriptCommand) -> ReplyStep<Never>? {
        switch command {
        case .send(let template): template.constantBytes.map { .send($0) }
        case .sendBytes(let bytes): .send(bytes)
        case .pause(let duration): .pause(duration)
        case .close: .close
        case .fault(let fault): .fault(fault)
        default: nil
        }
    }

    /// The steps of `commands`; an `otherwise` that runs replaces the rest. With `now`, the first
    /// command runs at once even when it must wait for its turn (the reply has reached it).
    private func steps<Output: Sendable>(for commands: ArraySlice<ScriptCommand>, match: ScriptRun.Match, now: Bool) -> [ReplyStep<Output>] {
        var steps: [ReplyStep<Output>] = []
        var index = commands.startIndex
        while index < commands.endIndex {
            let command = commands[index]
            if command.runsWhenReached && !(now && index == commands.startIndex) {
                let rest = commands[index...]
                steps.append(.then { [self] in self.steps(for: rest, match: match, now: true) })
                return steps
            }
            index += 1
            switch command {
            case .send(let template):
                steps.append(.send(render(template, match: match)))
            case .sendBytes(let bytes):
                steps.append(.send(bytes))
            case .sendData:
                steps.append(.send(values.data))
            case .pause(let duration):
                steps.append(.pause(duration))
                // What follows is worked out after the pause, with the values of that moment.
                if index < commands.endIndex {
                    let rest = commands[index...]
                    steps.append(.then { [self] in self.steps(for: rest, match: match, now: false) })
                    return steps
                }
            case .close:
                steps.append(.close)
            case .fault(let fault):
                steps.append(.fault(fault))
            case .conditions(let conditions):
                steps.append(.conditions(conditions))
            case .useSet(let name):
                storage.session.responseSet = name
                record(.switchedSet(name))
                log(.debug, "switched to set \"\(name)\"")
            case .selectFile(let template, let otherwise, let strict):
                let requested = text(template, match: match)
                let files = server.content().files
                let stored = Self.storedFile(named: requested, in: files)
                if let otherwise, strict || !files.isEmpty, stored == nil {
                    return steps + self.steps(for: otherwise[...], match: match, now: false)
                }
                selected.withLock { $0 = stored ?? requested }
            case .saveBody(let template):
                let body = values.body ?? match.input.bytes
                let name = FilePaths.storedName(ofTarget: text(template, match: match))
                server.storeFile(name, body)
                server.recordUpload(name: name, bytes: body, connection: connectionID)
            case .makeFolder(let template, let otherwise):
                if !changeFiles(template, match: match, { store, path, now in store.makeFolder(path, at: now) }), let otherwise {
                    return steps + self.steps(for: otherwise[...], match: match, now: false)
                }
            case .deleteFile(let template, let otherwise):
                if !changeFiles(template, match: match, { store, path, now in store.remove(path, at: now) != nil }), let otherwise {
                    return steps + self.steps(for: otherwise[...], match: match, now: false)
                }
            case .copyFile(let source, let destination, let move, let otherwise):
                let to = FilePaths.path(ofTarget: text(destination, match: match))
                let copied = changeFiles(source, match: match) { store, path, now in
                    to.flatMap { store.copy(path, to: $0, move: move, at: now) } != nil
                }
                if !copied, let otherwise {
                    return steps + self.steps(for: otherwise[...], match: match, now: false)
                }
            case .protocolCommand(let command):
                switch command.base.outcome(match, in: self, as: Output.self) {
                case .continue(let produced):
                    steps += produced
                    // A command that ran when reached may hand its driver work whose effects what
                    // follows sees (an FTP data channel opened on the connection): the rest is
                    // worked out after its steps.
                    if command.base.runsWhenReached, !produced.isEmpty, index < commands.endIndex {
                        let rest = commands[index...]
                        steps.append(.then { [self] in self.steps(for: rest, match: match, now: false) })
                        return steps
                    }
                case .instead(let produced): return steps + produced
                }
            }
        }
        return steps
    }

    /// The stored name of the file `name` selects: the file of that very name (an FTP argument, a
    /// name in the script), else the file at the path `name` decodes to (a request's `$path`, as
    /// the other file commands decode it); `nil` when there is none.
    private static func storedFile(named name: String, in files: [String: [UInt8]]) -> String? {
        if let stored = FileName.stored(name, in: files) { return stored }
        guard let path = FilePaths.path(ofTarget: name), case .file(let stored)? = FileTree(files: files).kind(of: path) else { return nil }
        return stored
    }

    /// Runs a file command on the path that `template` names (a path or an absolute URI,
    /// percent-encoded, as a request gives it), at the script's time; `false` when it names no
    /// path or the command changed nothing.
    private func changeFiles(_ template: ResponseTemplate, match: ScriptRun.Match,
                             _ change: (inout FileStore, String, Date) -> Bool) -> Bool {
        guard let path = FilePaths.path(ofTarget: text(template, match: match)) else { return false }
        let now = values.now()
        return server.withFileStore { change(&$0, path, now) }
    }
}
