import MockServerCore
import MockServerFileSystem

/// The server that scripts run on, as the interpreter and protocol commands see it: its responder,
/// data, files and uploads. `MockServer` provides it; commands never reach the server otherwise.
///
/// Every member may be called from any thread.
package protocol ScriptServer: Sendable {
    /// The transcript, logger and connection numbers.
    var environment: ServerEnvironment { get }
    /// The responder and the substitution values for one reply, read together.
    func replyState(base: SubstitutionContext) -> (any ScriptResponder, SubstitutionContext)
    /// The responder for one reply, with its substitution values read together with it into
    /// `context`, which holds a connection's base values and the previous reply's: only the values
    /// that change between replies are set, rather than the whole context copied for each reply.
    func replyState(updating context: inout SubstitutionContext) -> any ScriptResponder
    /// ``replyState(updating:)``'s responder as a ``ServerResponder``, which a server keeps with its
    /// responder so that a driver need not cast it at every reply.
    func serverResponder(updating context: inout SubstitutionContext) -> ServerResponder
    /// The substitution values for one step: `base` with the selected file's bytes (or the data).
    func substitutionContext(base: SubstitutionContext, selectedFile: String?) -> SubstitutionContext
    /// The data, the files and the protocols' settings (the script's, over those the server
    /// gives), read together.
    func content() -> (data: [UInt8], files: [String: [UInt8]], settings: ScriptSettings)
    /// Runs `body` on the files, their times and the protocols' state, atomically.
    func withFileStore<Result>(_ body: (inout FileStore) -> Result) -> Result
    /// Stores one file.
    func storeFile(_ name: String, _ bytes: [UInt8])
    /// Keeps an upload and records it in the transcript.
    func recordUpload(name: String, bytes: [UInt8], connection: Int)
    /// The longest line a line connection accepts.
    var maximumLineLength: Int { get }
}

extension ScriptServer {
    /// The values of ``replyState(base:)`` put into `context`; they replace everything it sets.
    package func replyState(updating context: inout SubstitutionContext) -> any ScriptResponder {
        let (responder, values) = replyState(base: context)
        context = values
        return responder
    }

    /// ``replyState(updating:)``'s responder, looked at anew for each reply.
    package func serverResponder(updating context: inout SubstitutionContext) -> ServerResponder {
        ServerResponder(replyState(updating: &context))
    }
}
