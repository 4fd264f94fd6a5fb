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
    public func adding(_ scriptProtocol: any ScriptProtocol) -> ScriptVocabulary {
        ScriptVocabulary(protocols + [scriptProtocol])
    }

    /// The framing a script with `scheme` gets when it does not name one: that of the first protocol
    /// that claims the scheme, or lines.
    public func framing(forScheme scheme: String?) -> Framing {
        guard let scheme = scheme?.lowercased() else { return .lines }
        return protocols.first { $0.schemes.contains(scheme) }?.framing ?? .lines
    }

    /// The substitutions the protocols add, by name; the first protocol to name one wins.
    public var variables: [String: ScriptProtocolVariable] {
        var table: [String: ScriptProtocolVariable] = [:]
        for scriptProtocol in protocols {
            for variable in scriptProtocol.variables where table[variable.name] == nil { table[variable.name] = variable }
        }
        return table
    }

    /// The protocols whose commands a script with `scheme` and `framing` may use: those that claim
    /// the scheme, and those that serve every scheme of the framing; when none claims it (or there
    /// is no scheme), those whose commands fit the framing.
    public func protocols(forScheme scheme: String?, framing: Framing) -> [any ScriptProtocol] {
        if let scheme = scheme?.lowercased() {
            let claiming = protocols.filter { $0.schemes.contains(scheme) }
            if !claiming.isEmpty {
                return protocols.filter { $0.schemes.contains(scheme) || ($0.servesEveryScheme && $0.framings.contains(framing)) }
            }
        }
        return protocols.filter { $0.framings.contains(framing) }
    }
}
