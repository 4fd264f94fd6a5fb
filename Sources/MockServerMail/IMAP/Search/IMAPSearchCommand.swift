/// A SEARCH command's arguments, parsed (RFC 9051 §6.4.4; RFC 4731 and RFC 5182 result options):
/// `SEARCH [RETURN (…)] [CHARSET name] key…`. `UID SEARCH` takes the same arguments.
package struct IMAPSearchCommand: Sendable, Hashable {
    /// The charset the client named (UTF-8 or US-ASCII), as written; nil when it named none.
    package var charset: String?
    /// The result options of `RETURN (…)` (`RETURN ()` is ALL); nil for a plain `* SEARCH` answer.
    package var returnOptions: IMAPSearchReturn?
    /// The criteria, all of which a message must meet.
    package var key: IMAPSearchKey

    /// A search.
    package init(charset: String? = nil, returnOptions: IMAPSearchReturn? = nil, key: IMAPSearchKey) {
        self.charset = charset
        self.returnOptions = returnOptions
        self.key = key
    }

    /// Parses the arguments after `SEARCH` (or `UID SEARCH`).
    ///
    /// - Returns: the search, or why it is refused: ``IMAPSearchError/bad(_:)`` for a malformed
    ///   command, a 32-bit number exceeded or a limit passed; ``IMAPSearchError/badCharset(_:)``
    ///   for a charset other than UTF-8 and US-ASCII.
    package static func parse(_ arguments: ArraySlice<IMAPValue>, limits: IMAPSearchLimits = .init()) -> Result<IMAPSearchCommand, IMAPSearchError> {
        Result { () throws(IMAPSearchError) -> IMAPSearchCommand in
            var arguments = arguments
            var returnOptions: IMAPSearchReturn?
            if case .atom(let word)? = arguments.first, word.uppercased() == "RETURN" {
                arguments.removeFirst()
                guard case .list(let options)? = arguments.popFirst() else { throw .bad("RETURN must be followed by a list of options") }
                returnOptions = try Self.returnOptions(options)
            }
            let charset = try Self.charset(&arguments)
            var parser = IMAPSearchKeyParser(arguments, limits: limits)
            return IMAPSearchCommand(charset: charset, returnOptions: returnOptions, key: try parser.program())
        }
    }

    /// The options of `RETURN (…)`; none means ALL (RFC 4731 §3.1).
    static func returnOptions(_ values: [IMAPValue]) throws(IMAPSearchError) -> IMAPSearchReturn {
        guard !values.isEmpty else { return .all }
        var options: IMAPSearchReturn = []
        for value in values {
            guard case .atom(let word) = value, let option = IMAPSearchReturn.names.first(where: { $0.0 == word.uppercased() }) else {
                throw .bad("Unknown SEARCH return option \(IMAPSearchKeyParser.describe(value))")
            }
            options.insert(option.1)
        }
        return options
    }

    /// Reads `CHARSET name` if it comes next.
    static func charset(_ arguments: inout ArraySlice<IMAPValue>) throws(IMAPSearchError) -> String? {
        guard case .atom(let word)? = arguments.first, word.uppercased() == "CHARSET" else { return nil }
        arguments.removeFirst()
        guard let value = arguments.popFirst(), let bytes = value.stringBytes else { throw .bad("Missing charset after CHARSET") }
        return try checkedCharset(String(decoding: bytes, as: UTF8.self))
    }

    /// `name` when searches accept it (UTF-8, US-ASCII, in any of their spellings).
    static func checkedCharset(_ name: String) throws(IMAPSearchError) -> String {
        let normalized = MIMECharset.normalized(name)
        guard normalized == "utf-8" || normalized == "us-ascii" else { throw .badCharset(IMAPSearchKeyParser.shorten(name)) }
        return name
    }
}
