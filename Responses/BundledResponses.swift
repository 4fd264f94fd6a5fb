import Foundation
import MockServer

/// The response scripts shipped in the package's `Responses` folder.
public enum BundledResponses {
    /// The names of the bundled response scripts: `ftp`, `http` and `webdav`. (The stub script
    /// `endpoints` is bundled too: ``url(named:)`` finds it; `HTTPMockServer.addEndpoints` serves it.)
    public static let names = ["ftp", "http", "webdav"]

    /// The file of the bundled script `name` (`ftp`), or `nil` when there is none.
    public static func url(named name: String) -> URL? {
        Bundle.module.url(forResource: name, withExtension: "json")
    }

    /// Loads the bundled script `name` (`ftp`).
    ///
    /// - Throws: ``ResponseFileError`` naming the script when it is not bundled or does not load.
    public static func script(named name: String) throws -> ResponseScript {
        guard let url = url(named: name) else {
            throw ResponseFileError(.unreadable(reason: "no bundled script named \"\(name)\" (bundled: \(names.joined(separator: ", ")))"), file: "\(name).json")
        }
        return try ResponseScript(contentsOf: url)
    }
}
