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
        switch precheck(input) {
        case .unmatched: return nil
        case .matched: return []
        case .needsEngine: return match(text: input.text)
        }
    }

    /// What a pattern says of an input before the regex engine runs.
    package enum Precheck {
        /// It does not match (the `«initial»` marker, or a literal prefix the input lacks).
        case unmatched
        /// It matches, capturing nothing (a catch-all, or a pattern that is its literal prefix).
        case matched
        /// Only the regex engine can say: ``match(text:)`` with the input's text.
        case needsEngine
    }

    /// What the pattern says of `input` from its bytes alone, so that a reader trying several
    /// patterns decodes the input's text once, for the first that needs it, and each pattern is read
    /// in place (an `inout` text passed beside a pattern read from the set made Swift copy the
    /// pattern for every try: +10,000 instructions a line of the FTP script, callgrind, session 29).
    package func precheck(_ input: InputUnit) -> Precheck {
        guard regex != nil else { return .unmatched }
        if matchesEverything { return .matched }
        if let prefix {
            guard prefix.admits(input.bytes) else { return .unmatched }
            if prefix.isWholePattern { return .matched }
        }
        return .needsEngine
    }

    /// The regex engine's match of `text` (an input's ``MockServerCore/InputUnit/text``): its groups
    /// 1…n, or `nil` when it does not match. The `«initial»` marker matches nothing.
    package func match(text: String) -> [String?]? {
        guard let regex,
              let result = regex.firstMatch(in: text, options: [], range: NSRange(location: 0, length: text.utf16.count)) else {
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
