import Foundation
import MockServer
import MockServerResponses

/// Finds a response script by name: `NAME.json` in the given bundle, or a bundled script.
enum ScriptLoading {
    /// The script `name` (with or without `.json`): from `bundle` (its top level or its `Responses`
    /// folder), else one of the package's bundled scripts.
    ///
    /// - Throws: ``ResponseFileError`` when it does not load; when it is nowhere, one that names
    ///   every place searched and how to put the file there.
    static func script(named name: String, in bundle: Bundle?) throws -> ResponseScript {
        try ResponseScript(contentsOf: url(named: name, in: bundle))
    }

    /// The file of the script `name` (with or without `.json`), found as ``script(named:in:)``
    /// finds it: a response script, or a stub script (the bundled `endpoints`, say).
    ///
    /// - Throws: ``ResponseFileError`` naming every place searched when it is nowhere.
    static func url(named name: String, in bundle: Bundle?) throws -> URL {
        let file = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        if let bundle, let url = bundle.url(forResource: file, withExtension: "json")
            ?? bundle.url(forResource: file, withExtension: "json", subdirectory: "Responses") {
            return url
        }
        guard let url = BundledResponses.url(named: file) else { throw notFound(file, in: bundle) }
        return url
    }

    /// The error for a script found nowhere: the places searched, then what to change.
    static func notFound(_ file: String, in bundle: Bundle?) -> ResponseFileError {
        var searched: [String] = []
        if let bundle {
            searched += ["\(bundle.bundlePath)/\(file).json", "\(bundle.bundlePath)/Responses/\(file).json"]
        }
        searched.append("MockServer's bundled scripts (\(BundledResponses.names.joined(separator: ", ")))")
        let hint = bundle == nil
            ? "pass in: .module to search your test target's resources"
            : "add the file to the test target's resources in Package.swift, resources: [.copy(\"\(file).json\")] (or a Responses folder: .copy(\"Responses\")), and pass in: .module"
        let reason = "no response script named \"\(file)\"; searched \(searched.joined(separator: ", ")); \(hint)"
        return ResponseFileError(.unreadable(reason: reason), file: "\(file).json")
    }
}
