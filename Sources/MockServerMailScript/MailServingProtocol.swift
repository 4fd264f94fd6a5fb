import MockServerCore
import MockServerMail
import MockServerScript

/// One mail protocol's part of a server (SMTP's, POP3's): it claims no scheme and adds no command;
/// each connection is served by a ``MailConnectionDriver`` over a new ``MailDialogue``.
package struct MailServingProtocol: ScriptProtocol {
    package let name: String
    package let schemes: Set<String> = []
    /// The routes it adds to the control API (SMTP's: Mailpit's API over the mailbox).
    package let adminRoutes: [ScriptVocabulary.AdminRoute]
    /// The most bytes a dialogue may leave unconsumed while it waits for more (a command line, a
    /// SASL answer): past it the connection closes. A dialogue bounds its own lines below this.
    private let maximumInput: Int
    /// Makes each connection's dialogue from its peer's address and its security at the start.
    private let makeDialogue: @Sendable (NetworkAddress?, MailTransportSecurity) -> any MailDialogue
    /// Whether the server's response script is tried before the dialogue (it has one).
    private let scriptFirst: Bool

    /// The protocol `name`, whose connections `makeDialogue` serves, after the server's response
    /// script when `scriptFirst`.
    package init(name: String, maximumInput: Int, scriptFirst: Bool = false, adminRoutes: [ScriptVocabulary.AdminRoute] = [],
                 makeDialogue: @escaping @Sendable (NetworkAddress?, MailTransportSecurity) -> any MailDialogue) {
        self.name = name
        self.adminRoutes = adminRoutes
        self.maximumInput = maximumInput
        self.scriptFirst = scriptFirst
        self.makeDialogue = makeDialogue
    }

    package func connections(framing: Framing) -> ScriptConnections {
        let make = makeDialogue
        let limit = maximumInput
        let scriptFirst = scriptFirst
        return ScriptConnections(outputType: Never.self) { context in
            { MailConnectionDriver(limit: limit, script: scriptFirst ? MailScriptHook(server: context.server, base: context.base) : nil, makeDialogue: make) }
        }
    }
}
