import MockServerCore
/// The default responder: tries the current set's patterns in order and runs the first match's
/// commands, with substitutions.
///
/// A connection starts on the responder's set; a ``ScriptCommand/useSet(_:)`` moves that connection alone
/// to another set of the same script. Swap the server's responder (``usingSet(_:)``) to move every
/// connection that has not switched by itself.
public struct PatternResponder: ScriptResponder {
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
        self.script = ResponseScript(sets: [set], vocabulary: .shared)
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
    public func usingResponseSet(_ name: String) throws -> (any ScriptResponder)? {
        try usingSet(name)
    }

    /// Runs the set's `«initial»` response.
    public func connected(session: inout ScriptSession, context: SubstitutionContext) -> ScriptReply? {
        guard let initial = currentSet(for: session).initial else { return nil }
        return ScriptReply(entry: initial, match: .opening)
    }

    /// Answers with the first matching response of the connection's set, or its fallback.
    public func respond(to input: InputUnit, session: inout ScriptSession, context: SubstitutionContext) -> ScriptReply? {
        respond(to: input, session: &session)
    }

    /// Answers with the first matching response of the connection's set, or its fallback: the
    /// choice reads no substitution values, so a driver need not make them to ask.
    package func respond(to input: InputUnit, session: inout ScriptSession) -> ScriptReply? {
        // The responder's own set is read in place: ``currentSet(for:)`` would copy it (a retain of
        // each of its parts) for every reply.
        if let switched = switchedSet(for: session) { return respond(to: input, in: switched) }
        return respond(to: input, in: responseSet)
    }

    /// The reply of `set` to `input`: its first matching entry's, or its fallback's.
    private func respond(to input: InputUnit, in set: ResponseSet) -> ScriptReply? {
        // The reply is made here, in the returned value, from the matching entry's position: returned
        // from ``firstMatch(in:input:where:)`` instead, it was made, copied (a retain of each of its
        // parts) and the original destroyed (about 60 instructions a reply more in all).
        if let (found, groups) = firstMatchIndex(in: set, input: input, where: { !$0.answersPart }) {
            return ScriptReply(entry: set.entries[found], match: ScriptRun.Match(input: input, groups: groups))
        }
        guard let fallback = set.fallback else { return nil }
        return ScriptReply(entry: fallback, match: ScriptRun.Match(input: input))
    }

    /// Chooses as ``respond(to:session:)`` does, but gives an entry whose steps were worked out when
    /// the script was loaded (``ResponseEntry/constantStreamSteps``) as those steps and its name,
    /// with no ``ScriptReply`` made for it.
    package func choose(_ input: InputUnit, session: inout ScriptSession) -> ScriptChoice? {
        if let switched = switchedSet(for: session) { return choose(input, in: switched) }
        return choose(input, in: responseSet)
    }

    /// The choice of `set` for `input`: its first matching entry's, or its fallback's.
    private func choose(_ input: InputUnit, in set: ResponseSet) -> ScriptChoice? {
        if let (found, groups) = firstMatchIndex(in: set, input: input, where: { !$0.answersPart }) {
            if let prepared = set.entries[found].constantStreamSteps { return .prepared(prepared, response: set.entries[found].name) }
            return .reply(ScriptReply(entry: set.entries[found], match: ScriptRun.Match(input: input, groups: groups)))
        }
        guard let fallback = set.fallback else { return nil }
        if let prepared = fallback.constantStreamSteps { return .prepared(prepared, response: fallback.name) }
        return .reply(ScriptReply(entry: fallback, match: ScriptRun.Match(input: input)))
    }

    /// Answers `part`, a part of a unit that a protocol's driver asks about, with the first matching
    /// response of the connection's set whose trait of type `trait` says it answers such parts
    /// (HTTP's `"head": true`); `nil` when none matches.
    package func respond<Trait: PartialInputAnswer>(toPart part: InputUnit, answeredBy trait: Trait.Type,
                                                    session: inout ScriptSession) -> ScriptReply? {
        firstMatch(in: currentSet(for: session), input: part) { $0.traits[trait] != nil }
    }

    /// The reply of the first entry of `set` that `answers` and matches `input`.
    ///
    /// The entries are read in place, not copied one by one: a copy of an entry retains each of its
    /// fields, and a line is tried against every entry before the one it matches. The closure finds
    /// the entry and the reply is made outside it: a reply made inside was copied out and the
    /// original destroyed (about 370 instructions a reply).
    private func firstMatch(in set: ResponseSet, input: InputUnit, where answers: (borrowing ResponseEntry) -> Bool) -> ScriptReply? {
        guard let (found, groups) = firstMatchIndex(in: set, input: input, where: answers) else { return nil }
        return ScriptReply(entry: set.entries[found], match: ScriptRun.Match(input: input, groups: groups))
    }

    /// The position in `set` of the first entry that `answers` and whose pattern matches `input`,
    /// with the pattern's groups.
    private func firstMatchIndex(in set: ResponseSet, input: InputUnit,
                                 where answers: (borrowing ResponseEntry) -> Bool) -> (index: Int, groups: [String?])? {
        var groups: [String?] = []
        // The input's text, decoded by the first pattern that needs the regex engine.
        var text: String?
        let found: Int? = set.entries.withUnsafeBufferPointer { entries in
            for index in entries.indices where answers(entries[index]) {
                switch entries[index].pattern.precheck(input) {
                case .unmatched:
                    continue
                case .matched:
                    return index
                case .needsEngine:
                    let decoded = text ?? input.text
                    text = decoded
                    if let matched = entries[index].pattern.match(text: decoded) {
                        groups = matched
                        return index
                    }
                }
            }
            return nil
        }
        guard let found else { return nil }
        return (found, groups)
    }

    private func currentSet(for session: ScriptSession) -> ResponseSet {
        switchedSet(for: session) ?? responseSet
    }

    /// The set the connection switched to, when it is not the responder's own.
    private func switchedSet(for session: ScriptSession) -> ResponseSet? {
        guard let name = session.responseSet, name != responseSet.name, let set = try? script.set(named: name) else { return nil }
        return set
    }
}
