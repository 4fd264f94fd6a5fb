import MockServerCore

/// The one reader of `name=value&name=value` text: a request target's query and an
/// `application/x-www-form-urlencoded` body alike (`+` is a space, `%XX` the byte it stands for;
/// an invalid escape stays as written).
package enum HTTPFormFields {
    /// The fields of `text` in the order written, a repeated name once per occurrence; a name
    /// without `=` has the empty value, and empty pieces (`a=1&&b=2`) are skipped.
    package static func parse(_ text: Substring) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// `+` as a space and `%XX` as the byte it stands for; invalid escapes stay as written.
    package static func decode(_ text: Substring) -> String {
        PercentCoding.decodedText(text, plusAsSpace: true)
    }
}
