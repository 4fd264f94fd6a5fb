/// A line protocol that adds no commands of its own, only its schemes and their TLS forms: what a
/// script of a mail protocol (`smtp`, `imap`, `pop3`) speaks, with the shared commands and TLS's
/// `«starttls»`.
package struct LineScriptProtocol: ScriptProtocol {
    package let name: String
    package let schemes: Set<String>
    package let framings: Set<Framing> = [.lines, .raw]
    /// Each plain scheme's TLS form (`smtp` → `smtps`).
    private let tlsForms: [String: String]

    /// A protocol named `name` that claims each scheme of `tlsForms` and its TLS form.
    package init(name: String, tlsForms: [String: String]) {
        self.name = name
        self.schemes = Set(tlsForms.keys).union(tlsForms.values)
        self.tlsForms = tlsForms
    }

    package func urlScheme(for scheme: String, implicitTLS: Bool) -> String {
        implicitTLS ? tlsForms[scheme] ?? scheme : scheme
    }
}
