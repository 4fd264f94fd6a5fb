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
    /// TLS cannot be set up: OpenSSL is missing, or the certificate or key is unusable.
    case tls(TLSError)
    /// A file that cannot be written.
    case cannotWrite(path: String, reason: String)
    /// A `.proto` file or descriptor set that cannot be read: `FILE:LINE:COLUMN: reason`.
    case schema(String)

    /// The exit status, from `sysexits.h`.
    var exitStatus: Int32 {
        switch self {
        case .usage: 64
        case .responseFile(let error): if case .unreadable = error.problem { 66 } else { 65 }
        case .mockData(let error): if case .malformedFile = error { 65 } else { 66 }
        case .unreadable: 66
        case .cannotListen: 71
        case .tls(let error):
            switch error {
            case .libraryMissing: 69
            case .badPEM: 65
            case .setupFailed: 70
            }
        case .cannotWrite: 73
        case .schema: 65
        }
    }

    var description: String {
        switch self {
        case .usage(let message):
            // A subcommand's messages start with its name ("mail: …"): its own help is the one to read.
            "mockserver: \(message)\nRun mockserver \(["mail", "record"].first { message.hasPrefix("\($0):") }.map { "\($0) " } ?? "")--help for usage."
        case .responseFile(let error): "\(error)"
        case .mockData(let error): if case .malformedFile = error { "\(error)" } else { "mockserver: \(error)" }
        case .unreadable(let path, let reason): "mockserver: cannot read \(path): \(reason)"
        case .cannotListen(let error): "mockserver: cannot listen: \(error)"
        case .tls(let error): "mockserver: \(error)"
        case .cannotWrite(let path, let reason): "mockserver: cannot write \(path): \(reason)"
        case .schema(let error): "\(error)"
        }
    }
}
