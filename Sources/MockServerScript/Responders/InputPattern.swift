import Foundation
import MockServerCore

/// What a response answers: a regular expression, or the `«initial»` marker for a new connection.
///
/// Regular expressions are `NSRegularExpression`s with `.dotMatchesLineSeparators`, searched
/// anywhere in the input (use `^` to anchor). Matching is case-sensitive.
public struct InputPattern: Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let source: String
    /// Whether this is the `«initial»` marker, run when a connection opens.
    public let isInitial: Bool
    private let regex: NSRegularExpression?
    private let prefix: LiteralPrefix?
    /// Whether the pattern matches every input and captures nothing (`.*`, `^.*$`: with
    /// `.dotMatchesLineSeparators` it matches the whole of any input, the empty one too), so the
    /// regex engine is not needed to say so: an echo or a catch-all fallback.
    private let matchesEverything: Bool

    /// The spellings of a pattern that matches every input and captures nothing.
    private static let everything: Set<String> = [".*", "^.*", ".*$", "^.*$", "(?s).*", "(?s)^.*$"]

    /// The `«initial»` marker.
    public static let initial = InputPattern(source: "«initial»", isInitial: true, regex: nil, prefix: nil)

    /// Compiles a regular expression.
    ///
    /// - Throws: ``PatternError`` with the regex engine's reason when `source` does not compile.
    public init(_ source: String) throws(PatternError) {
        if source == InputPattern.initial.source {
            self = .initial
            return
        }
        do {
            let regex = try NSRegularExpression(pattern: source, options: [.dotMatchesLineSeparators])
            self.init(source: source, isInitial: false, regex: regex, prefix: LiteralPrefix(pattern: source))
        } catch {
            throw PatternError(pattern: source, reason: PatternDiagnosis.explain(source) ?? Self.reason(for: error))
        }
    }

    private init(source: String, isInitial: Bool, regex: NSRegularExpression?, prefix: LiteralPrefix?) {
        self.source = source
        self.isInitial = isInitial
        self.regex = regex
        self.prefix = prefix
        self.matchesEverything = regex != nil && Self.everything.contains(source)
    }

    /// The pattern as written.
    public var description: String { source }

    /// The number of capture groups.
    public var captureGroupCount: Int { regex?.numberOfCaptureGroups ?? 0 }

    /// Matches `input` and returns its capture groups 1…n (`nil` for a group that did not take
    /// part), or `nil` when the pattern does not match. The `«initial»` marker matches nothing.
    public func match(_ input: InputUnit) -> [String?]? {
        var text: String?
        return match(input, text: &text)
    }

    /// Matches `input` as ``match(_:)`` does, decoding its text into `text` only when the regex
    /// engine needs it and `text` is still `nil`: a unit tried against several patterns is decoded once.
    package func match(_ input: InputUnit, text decoded: inout String?) -> [String?]? {
        guard let regex else { return nil }
        if matchesEverything { return [] }
        if let prefix {
            guard prefix.admits(input.bytes) else { return nil }
            if prefix.isWholePattern { return [] }
        }
        let text = decoded ?? input.text
        decoded = text
        guard let result = regex.firstMatch(in: text, options: [], range: NSRange(location: 0, length: text.utf16.count)) else {
            return nil
        }
        guard result.numberOfRanges > 1 else { return [] }
        return (1..<result.numberOfRanges).map { index in
            Range(result.range(at: index), in: text).map { String(text[$0]) }
        }
    }

    private static func reason(for error: any Error) -> String {
        let nsError = error as NSError
        if let reason = nsError.userInfo[NSLocalizedFailureReasonErrorKey] as? String { return reason }
        if let description = nsError.userInfo[NSLocalizedDescriptionKey] as? String { return description }
        return "the regular expression engine rejected it (\(nsError.domain) \(nsError.code))"
    }
}

/// A regular expression that does not compile.
public struct PatternError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    /// The regex engine's explanation.
    public let reason: String

    /// `invalid pattern "(": reason`.
    public var description: String { "invalid pattern \"\(pattern)\": \(reason)" }
}
