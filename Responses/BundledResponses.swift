import Foundation
import MockServer

/// The response scripts shipped in the package's `Responses` folder.
public enum BundledResponses {
    /// The names of the bundled response scripts: `ftp`, `http` and `webdav`. (The stub script
    /// `endpoints` is bundled too: ``url(named:)`` finds it; `HTTPMockServer.addEndpoints` serves it.)
    public static let names = ["ftp", "http", "webdav"]

    /// The file of the bundled script `name` (`ftp`), or `nil` when there is none.
    ///
    /// The scripts are looked up in SwiftPM's resource bundle next to the program (or its test
    /// bundle), then next to the executable a symbolic link points at, then in the package's own
    /// `Responses` folder, so that a `mockserver` copied out of `.build` without its bundle still
    /// finds them while the checkout it was built from is there (``searchedPlaces`` lists where).
    public static func url(named name: String) -> URL? {
        for folder in searchedPlaces {
            if let bundle = Bundle(url: folder), let url = bundle.url(forResource: name, withExtension: "json") { return url }
            let file = folder.appendingPathComponent("\(name).json")
            if FileManager.default.fileExists(atPath: file.path) { return file }
        }
        return nil
    }

    /// Where ``url(named:)`` looks, in order.
    public static var searchedPlaces: [URL] {
        #if canImport(Darwin)
        let bundleName = "MockServer_MockServerResponses.bundle"
        #else
        let bundleName = "MockServer_MockServerResponses.resources"
        #endif
        var folders = [Bundle.main.bundleURL, Bundle(for: Finder.self).bundleURL.deletingLastPathComponent()]
        if let executable = Bundle.main.executableURL {
            folders.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        var places: [URL] = []
        for folder in folders {
            let place = folder.appendingPathComponent(bundleName)
            if !places.contains(place) { places.append(place) }
        }
        places.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent())
        return places
    }

    /// Loads the bundled script `name` (`ftp`).
    ///
    /// - Throws: ``ResponseFileError`` naming the script when it is not bundled or does not load,
    ///   and where it was looked for when no bundle was found at all.
    public static func script(named name: String) throws -> ResponseScript {
        guard let url = url(named: name) else {
            let known = names.contains(name) || name == "endpoints"
            let places = searchedPlaces
            let reason = known
                ? "the bundled script \"\(name)\" is not where it is installed: looked in \(places.map(\.path).joined(separator: ", ")); "
                    + "copy \(places[0].lastPathComponent) from the build folder next to the program, or pass a FILE"
                : "no bundled script named \"\(name)\" (bundled: \(names.joined(separator: ", ")))"
            throw ResponseFileError(.unreadable(reason: reason), file: "\(name).json")
        }
        return try ResponseScript(contentsOf: url)
    }

    /// A class of this module, for the bundle it was loaded from.
    private final class Finder {}
}
