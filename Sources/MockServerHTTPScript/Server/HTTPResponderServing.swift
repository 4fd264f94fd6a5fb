import MockServerCore
import MockServerHTTP
import MockServerScript

/// The protocol of a server made with an ``HTTPMockResponder`` of its own: every connection is
/// HTTP's, its requests answered by that responder, whatever the server's script says.
package struct HTTPResponderServing: ScriptProtocol {
    package let name = "HTTP"
    package let schemes: Set<String> = ["http"]
    package let framing = Framing.requests
    /// The responder every request goes to.
    let responder: any HTTPMockResponder

    package init(_ responder: any HTTPMockResponder) {
        self.responder = responder
    }

    /// HTTP's connections, whatever `framing` the (empty) script has.
    package func connections(framing: Framing) -> ScriptConnections {
        let responder = responder
        return HTTPScriptProtocol.connections { _ in responder }
    }

    /// `https` under implicit TLS.
    package func urlScheme(for scheme: String, implicitTLS: Bool) -> String {
        HTTPScriptProtocol().urlScheme(for: scheme, implicitTLS: implicitTLS)
    }
}
