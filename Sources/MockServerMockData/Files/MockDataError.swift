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

    public var description: String {
        switch self {
        case .folderUnavailable(let path, let reason):
            "mock data: cannot use the folder \(path): \(reason)"
        case .notInBundle(let name, let bundlePath):
            """
            mock data: no folder named "\(name)" in the bundle at \(bundlePath) (add it to the test target as \
            resources: [.copy("\(name)")], and pass in: .module)
            """
        case .unreadableFile(let path, let reason):
            "mock data: cannot read \(path): \(reason)"
        case .malformedFile(let path, let line, let column, let message):
            "\(path):\(line):\(column.map { "\($0):" } ?? "") \(message)"
        }
    }
}
