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
    /// The substitution values for one step: `base` with the selected file's bytes (or the data).
    func substitutionContext(base: SubstitutionContext, selectedFile: String?) -> SubstitutionContext
    /// The data, the files and the listing text, read together.
    func content() -> (data: [UInt8], files: [String: [UInt8]], listing: [UInt8]?)
    /// Runs `body` on the files, their times and the protocols' state, atomically.
    func withFileStore<Result>(_ body: (inout FileStore) -> Result) -> Result
    /// Stores one file.
    func storeFile(_ name: String, _ bytes: [UInt8])
    /// Keeps an upload and records it in the transcript.
    func recordUpload(name: String, bytes: [UInt8], connection: Int)
    /// How long an upload must be quiet before the script goes on: the script's or the server's.
    var uploadSettle: Duration? { get }
    /// The longest line a line connection accepts.
    var maximumLineLength: Int { get }
}
