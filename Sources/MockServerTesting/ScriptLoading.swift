import Foundation
import MockServer
import MockServerResponses

/// Finds a response script by name: `NAME.json` in the given bundle, or a bundled script.
enum ScriptLoading {
    static func script(named name: String, in bundle: Bundle?) throws -> ResponseScript {
        let file = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        if let bundle, let url = bundle.url(forResource: file, withExtension: "json")
            ?? bundle.url(forResource: file, withExtension: "json", subdirectory: "Responses") {
            return try ResponseScript(contentsOf: url)
        }
        return try BundledResponses.script(named: file)
    }
}
