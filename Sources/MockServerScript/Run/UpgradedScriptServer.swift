import MockServerCore
import MockServerFileSystem

/// A script that an HTTP connection switched to (an endpoint's `"upgrade"`), run on its server: the
/// script's own responses (and its `data`, when it gives any), with the server's transcript, files
/// and uploads, as a script the server started with would have them.
package struct UpgradedScriptServer: ScriptServer {
    private let server: any ScriptServer
    private let responder: PatternResponder

    /// `responder`'s script run on `server`.
    package init(_ responder: PatternResponder, on server: any ScriptServer) {
        self.server = server
        self.responder = responder
    }

    package var environment: ServerEnvironment { server.environment }

    package func replyState(base: SubstitutionContext) -> (any ScriptResponder, SubstitutionContext) {
        var (_, context) = server.replyState(base: base)
        if let data = responder.responseScript?.data { context.data = data }
        // The script's own protocols' substitutions first, then the server's.
        if let own = responder.responseScript?.variables, !own.isEmpty { context.protocolVariables.merge(own) { _, script in script } }
        return (responder, context)
    }

    package func substitutionContext(base: SubstitutionContext, selectedFile: String?) -> SubstitutionContext {
        var context = server.substitutionContext(base: base, selectedFile: selectedFile)
        if selectedFile == nil, let data = responder.responseScript?.data { context.data = data }
        return context
    }

    package func content() -> (data: [UInt8], files: [String: [UInt8]], settings: ScriptSettings) {
        var content = server.content()
        if let data = responder.responseScript?.data { content.data = data }
        if let own = responder.responseScript?.settings { content.settings = content.settings.merging(own) }
        return content
    }

    package func withFileStore<Result>(_ body: (inout FileStore) -> Result) -> Result { server.withFileStore(body) }
    package func storeFile(_ name: String, _ bytes: [UInt8]) { server.storeFile(name, bytes) }
    package func recordUpload(name: String, bytes: [UInt8], connection: Int) { server.recordUpload(name: name, bytes: bytes, connection: connection) }
    package var maximumLineLength: Int { server.maximumLineLength }
}
