import MockServerCore

extension Transcript.Note {
    /// A data connection receiving an upload has `count` bytes so far (recorded as they come, at
    /// most every 100 ms).
    package static func uploadProgress(_ count: Int) -> Transcript.Note {
        Transcript.Note(kind: "data-progress", text: "<- \(count) bytes so far", bytes: count)
    }

    /// An upload's data connection was quiet for `quiet` after `received` bytes: the script went on
    /// (its `226`) while the connection is read to its end.
    package static func uploadSettled(received: Int, quiet: Duration) -> Transcript.Note {
        Transcript.Note(kind: "upload-settled", text: "quiet for \(quiet) after \(received) bytes: the reply goes on, reading to the end", bytes: received)
    }
}
