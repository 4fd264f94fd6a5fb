/// How much of a SEARCH or SORT program the server accepts: bounds on nesting and on the number
/// of criteria, so that no client decides how deep the parser and the matcher recurse or how long
/// one message's test takes. Past a bound the command is answered `BAD`.
package struct IMAPSearchLimits: Sendable, Hashable {
    /// The deepest nesting of parenthesized lists, `NOT` and `OR` (a chain of `OR`s and `NOT NOT`
    /// count once: they are flattened).
    package var depth: Int
    /// The most criteria in one command, every key inside lists and `OR`s counted.
    package var keyCount: Int

    /// Limits; the defaults pass every search a real client writes (Thunderbird's longest filters
    /// stay under ten levels).
    package init(depth: Int = 32, keyCount: Int = 1_000) {
        self.depth = depth
        self.keyCount = keyCount
    }
}
