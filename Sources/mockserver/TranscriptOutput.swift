import Foundation
import MockServer
import MockServerAdmin

/// Where `--verbose` and `--transcript FILE` send the transcript, for serving and recording alike.
enum TranscriptOutput {
    /// An observer that prints each entry (`verbose`) and appends it to `path` as a JSON line (each
    /// written at once, so a reader sees it while the server runs), after `shown` has made it what
    /// may be shown; `nil` when neither is asked for.
    ///
    /// - Throws: what `cannotCreate` makes of the path, when the file cannot be created.
    static func observer(path: String?, verbose: Bool, cannotCreate: (String) -> CommandLineError,
                         shown: @escaping @Sendable (Transcript.Entry) -> Transcript.Entry = { $0 })
        throws(CommandLineError) -> (@Sendable (Transcript.Entry) -> Void)? {
        var file: FileHandle?
        if let path {
            guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                throw cannotCreate(path)
            }
            file = handle
        }
        guard verbose || file != nil else { return nil }
        return { [file] entry in
            let entry = shown(entry)
            if verbose { FileHandle.standardError.write(Data("\(entry)\n".utf8)) }
            file?.write(Data(AdminResponder.jsonLine(entry)))
        }
    }
}
