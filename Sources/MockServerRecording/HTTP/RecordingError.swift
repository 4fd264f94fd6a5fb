/// Why a recording cannot start or cannot write what it recorded.
public enum RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The upstream URL is unusable.
    case badUpstream(String, reason: String)
    /// A file or folder of the recording cannot be read or written.
    case cannotWrite(path: String, reason: String)
    /// What the recording adds to cannot be read (a malformed endpoints file, a bad mock-data file).
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .badUpstream(let url, let reason): "upstream \(url): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .unreadable(let path, let reason): "cannot record into \(path): \(reason)"
        }
    }
}
