import MockServer

/// A failure of the `mockserver` command, with its exit status.
enum CommandLineError: Error, CustomStringConvertible {
    /// Bad arguments.
    case usage(String)
    /// A response file that does not load or does not pass `--check`.
    case responseFile(ResponseFileError)
    /// A mock-data folder, or one of its files, that cannot be used.
    case mockData(MockDataError)
    /// A file that cannot be read.
    case unreadable(path: String, reason: String)
    /// The server cannot listen.
    case cannotListen(any Error)

    /// The exit status, from `sysexits.h`.
    var exitStatus: Int32 {
        switch self {
        case .usage: 64
        case .responseFile(let error): if case .unreadable = error.problem { 66 } else { 65 }
        case .mockData(let error): if case .malformedFile = error { 65 } else { 66 }
        case .unreadable: 66
        case .cannotListen: 71
        }
    }

    var description: String {
        switch self {
        case .usage(let message): "mockserver: \(message)\nRun mockserver --help for usage."
        case .responseFile(let error): "\(error)"
        case .mockData(let error): if case .malformedFile = error { "\(error)" } else { "mockserver: \(error)" }
        case .unreadable(let path, let reason): "mockserver: cannot read \(path): \(reason)"
        case .cannotListen(let error): "mockserver: cannot listen: \(error)"
        }
    }
}
