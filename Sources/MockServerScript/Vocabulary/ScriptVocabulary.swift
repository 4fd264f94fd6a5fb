import MockServerCore

/// The script language a response file is read in: the commands every script has, plus those of
/// the protocols given.
///
/// `import MockServer` gives ``standard`` (FTP, HTTP and WebDAV), which `ResponseScript(contentsOf:)`
/// uses; add a protocol of your own with ``adding(_:)`` and load with
/// `ResponseScript(contentsOf:vocabulary:)`.
public struct ScriptVocabulary: Sendable {
    /// The protocols whose commands scripts may use, in the order they are consulted.
    public let protocols: [any ScriptProtocol]

    /// A vocabulary of the shared commands and those of `protocols`.
    public init(_ protocols: [any ScriptProtocol]) {
        self.protocols = protocols
    }

    /// The shared commands alone.
    public static let shared = ScriptVocabulary([])

    /// The same vocabulary with `scriptProtocol` added.
    ///
    /// - Throws: ``ClaimError`` naming the scheme and both protocols when a protocol of the
    ///   vocabulary claims one of `scriptProtocol`'s schemes already: every scheme has one claimant.
    public func adding(_ scriptProtocol: any ScriptProtocol) throws(ClaimError) -> ScriptVocabulary {
        for scheme in scriptProtocol.schemes.map({ $0.lowercased() }).sorted() {
            if let claimant = claimant(ofScheme: scheme) {
                throw ClaimError(scheme: scheme, claimant: claimant.name, newcomer: scriptProtocol.name)
            }
        }
        return ScriptVocabulary(protocols + [scriptProtocol])
    }

    /// The protocol that claims `scheme` (compared in lower case); for no scheme, the one that
    /// serves scripts without one. `nil` when none does.
    public func claimant(ofScheme scheme: String?) -> (any ScriptProtocol)? {
        guard let scheme = scheme?.lowercased() else { return protocols.first { $0.servesScriptsWithoutScheme } }
        return protocols.first { $0.schemes.contains(scheme) }
    }

    /// Every scheme its protocols claim, sorted: what an error about an unclaimed scheme lists.
    public var schemes: [String] { protocols.flatMap(\.schemes).sorted() }

    /// The framing a script with `scheme` gets when it does not name one: that of the protocol that
    /// claims the scheme, or lines.
    public func framing(forScheme scheme: String?) -> Framing {
        claimant(ofScheme: scheme)?.framing ?? .lines
    }

    /// The substitutions the protocols add, by name; the first protocol to name one wins.
    public var variables: [String: ScriptProtocolVariable] {
        var table: [String: ScriptProtocolVariable] = [:]
        for scriptProtocol in protocols {
            for variable in scriptProtocol.variables where table[variable.name] == nil { table[variable.name] = variable }
        }
        return table
    }

    /// The protocols whose commands a script with `scheme` and `framing` may use: the one that
    /// claims the scheme, those it extends, and those that serve every scheme of the framing.
    public func protocols(forScheme scheme: String?, framing: Framing) -> [any ScriptProtocol] {
        let claimant = claimant(ofScheme: scheme)
        return protocols.filter { scriptProtocol in
            guard let claimant else { return scriptProtocol.servesEveryScheme && scriptProtocol.framings.contains(framing) }
            return scriptProtocol.name == claimant.name || claimant.extendedProtocols.contains(scriptProtocol.name)
                || (scriptProtocol.servesEveryScheme && scriptProtocol.framings.contains(framing))
        }
    }
}
