import MockServerCore

/// Why a mock-data folder or one of its files cannot be used.
public enum MockDataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The folder does not exist, is not a folder, or cannot be listed.
    case folderUnavailable(path: String, reason: String)
    /// No folder of that name is among a bundle's resources.
    case notInBundle(name: String, bundlePath: String)
    /// A file cannot be read.
    case unreadableFile(path: String, reason: String)
    /// A file does not hold a response: an `.http` file that is not a status line, headers and a
    /// blank line, or a `.json` file that is not JSON. `line` (and `column` for JSON) point at
    /// the culprit.
    case malformedFile(path: String, line: Int, column: Int?, message: String)

    /// The reason in a sentence; about a file that is a copy of a package's resource, with the
    /// source file to edit.
    public var description: String {
        switch self {
        case .folderUnavailable(let path, let reason):
            "mock data: cannot use the folder \(path): \(reason)"
        case .notInBundle(let name, let bundlePath):
            """
            mock data: no folder named "\(name)" in the bundle at \(bundlePath) (add it to the test target as \
            resources: [.copy("\(name)")], and pass in: .module)
            """
        // A file that is a build's copy of a resource also names its source, the file to edit.
        case .unreadableFile(let path, let reason):
            "mock data: cannot read \(path): \(reason)" + ResourceSource.note(forCopy: path)
        case .malformedFile(let path, let line, let column, let message):
            "\(path):\(line):\(column.map { "\($0):" } ?? "") \(message)" + ResourceSource.note(forCopy: path, place: ":\(line)" + (column.map { ":\($0)" } ?? ""))
        }
    }
}
