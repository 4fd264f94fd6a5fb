import MockServerCore

extension Transcript {
    /// Waits for an input on the control port whose text contains a match of `pattern` (an
    /// ``InputPattern``: dot-all, as in response files).
    ///
    /// - Throws: ``Transcript.Timeout`` with the transcript so far; ``PatternError`` for a bad pattern.
    @discardableResult
    public func waitForInput(matching pattern: String, timeout: Duration = .seconds(10)) async throws -> InputUnit {
        let compiled = try InputPattern(pattern)
        let entry = try await wait(for: "input matching \(pattern)", timeout: timeout) { entry in
            switch entry.event {
            case .input(let input, _), .unmatched(let input): compiled.match(input) != nil
            default: false
            }
        }
        switch entry.event {
        case .input(let input, _), .unmatched(let input): return input
        default: return InputUnit(bytes: [])
        }
    }
}
