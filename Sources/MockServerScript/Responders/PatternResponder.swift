import MockServerCore
/// The default responder: tries the current set's patterns in order and runs the first match's
/// commands, with substitutions.
///
/// A connection starts on the responder's set; a ``Command/useSet(_:)`` moves that connection alone
/// to another set of the same script. Swap the server's responder (``usingSet(_:)``) to move every
/// connection that has not switched by itself.
public struct PatternResponder: Responder {
    /// All sets this responder can switch between.
    public let script: ResponseScript
    /// The set new connections use.
    public let responseSet: ResponseSet

    /// The script's framing: lines, whole HTTP requests, or raw reads.
    public var framing: Framing { script.framing }

    /// The name of the set new connections use.
    public var setName: String { responseSet.name }

    /// A responder over one set of entries, tried in order (a `«initial»` entry runs on connect).
    ///
    /// - Parameters:
    ///   - entries: the responses, first match wins.
    ///   - fallback: what answers an input no entry matches; `nil` closes such connections.
    public init(_ entries: [ResponseEntry], fallback: ResponseEntry? = nil) {
        let set = ResponseSet(name: "default", entries: entries, fallback: fallback)
        self.script = ResponseScript(sets: [set])
        self.responseSet = set
    }

    /// A responder over `script`, starting connections on the set named `set`.
    ///
    /// - Throws: ``ResponseFileError`` when the set does not exist or names a missing response.
    public init(script: ResponseScript, set: String = "default") throws(ResponseFileError) {
        self.script = script
        self.responseSet = try script.set(named: set)
    }

    /// The same script with new connections starting on another set.
    ///
    /// - Throws: ``ResponseFileError`` when the set does not exist or names a missing response.
    public func usingSet(_ name: String) throws(ResponseFileError) -> PatternResponder {
        try PatternResponder(script: script, set: name)
    }

    /// The script: its `data`, `files` and `scheme` serve the server.
    public var responseScript: ResponseScript? { script }

    /// The same script with new connections starting on the set `name`.
    ///
    /// - Throws: ``ResponseFileError`` when the set does not exist or names a missing response.
    public func usingResponseSet(_ name: String) throws -> (any Responder)? {
        try usingSet(name)
    }

    /// Runs the set's `«initial»` response.
    public func connected(session: inout ResponderSession, context: SubstitutionContext) -> [Action] {
        guard let initial = currentSet(for: session).initial else { return [] }
        return actions(for: initial.commands, input: InputUnit(bytes: []), groups: [], context: context)
    }

    /// Answers with the first matching response of the connection's set, or its fallback.
    public func respond(to input: InputUnit, session: inout ResponderSession, context: SubstitutionContext) -> Reply? {
        let set = currentSet(for: session)
        if let reply = firstMatch(in: set, heads: false, input: input, context: context) { return reply }
        guard let fallback = set.fallback else { return nil }
        return Reply(actions: actions(for: fallback.commands, input: input, groups: [], context: context), response: fallback.name)
    }

    /// Answers a request head with the first matching `"head": true` response of the connection's
    /// set; `nil` (send `100 Continue`) when none matches.
    public func respond(toHead head: InputUnit, session: inout ResponderSession, context: SubstitutionContext) -> Reply? {
        firstMatch(in: currentSet(for: session), heads: true, input: head, context: context)
    }

    /// The reply of the first entry of `set` that answers heads (or whole inputs) and matches `input`.
    private func firstMatch(in set: ResponseSet, heads: Bool, input: InputUnit, context: SubstitutionContext) -> Reply? {
        for entry in set.entries where entry.answersHead == heads {
            if let groups = entry.pattern.match(input) {
                return Reply(actions: actions(for: entry.commands, input: input, groups: groups, context: context), response: entry.name)
            }
        }
        return nil
    }

    private func currentSet(for session: ResponderSession) -> ResponseSet {
        guard let name = session.responseSet, name != responseSet.name, let set = try? script.set(named: name) else {
            return responseSet
        }
        return set
    }

    private func actions(for commands: [Command], input: InputUnit, groups: [String?], context: SubstitutionContext) -> [Action] {
        commands.map { command in
            switch command {
            case .send(let template):
                if let constant = template.constantBytes { .send(constant) } else { .render(Rendering(template: template, input: input, groups: groups)) }
            case .sendBytes(let bytes): .send(bytes)
            case .sendData: .sendData
            case .pause(let duration): .pause(duration)
            case .close: .close
            case .useSet(let name): .useSet(name)
            case .selectFile(let template, let otherwise, let strict):
                .selectFile(Rendering(template: template, input: input, groups: groups),
                            otherwise: otherwise.map { actions(for: $0, input: input, groups: groups, context: context) }, strict: strict)
            case .openPassive: .openPassive
            case .connectActive(let template, let otherwise):
                .connectActive(Rendering(template: template, input: input, groups: groups),
                               otherwise: otherwise.map { actions(for: $0, input: input, groups: groups, context: context) })
            case .transfer(let transfer): .transfer(transfer)
            case .httpResponse(let response): .render(Rendering(content: .response(response), input: input, groups: groups))
            case .fault(let fault): .fault(fault)
            case .saveBody(let template): .saveBody(Rendering(template: template, input: input, groups: groups))
            case .continueRequest: .continueRequest
            case .propfind: .propfind(input)
            case .webdav: .webdav(input)
            case .ftp: .ftp(input)
            case .makeFolder(let template, let otherwise):
                .makeFolder(Rendering(template: template, input: input, groups: groups),
                            otherwise: otherwise.map { actions(for: $0, input: input, groups: groups, context: context) })
            case .copyFile(let source, let destination, let move, let otherwise):
                .copyFile(Rendering(template: source, input: input, groups: groups), to: Rendering(template: destination, input: input, groups: groups),
                          move: move, otherwise: otherwise.map { actions(for: $0, input: input, groups: groups, context: context) })
            case .deleteFile(let template, let otherwise):
                .deleteFile(Rendering(template: template, input: input, groups: groups),
                            otherwise: otherwise.map { actions(for: $0, input: input, groups: groups, context: context) })
            }
        }
    }
}
