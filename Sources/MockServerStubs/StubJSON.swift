import Foundation
import MockServerCore

/// JSON bodies of stubs, read and written by the package's own JSON reader and writer.
enum StubJSON {
    /// The canonical text of JSON `bytes` (keys sorted, numbers by value, no spaces), or `nil` when
    /// it is not JSON: two bodies are the same JSON when their canonical texts are equal.
    static func canonical(_ bytes: [UInt8]) -> String? {
        (try? JSONReader.parse(bytes, options: .strict)).map { JSONText.write($0, layout: .canonical) }
    }

    /// `object` (dictionaries, arrays, strings, numbers, booleans, `NSNull` and optionals, nested)
    /// as canonical JSON text; `null` for what JSON cannot hold.
    static func text(_ object: Any) -> String {
        JSONNode(foundationObject: object).map { JSONText.write($0, layout: .canonical) } ?? "null"
    }
}
