/// How long a test may let a network condition take, for the condition suites of the engine's
/// target and the command line's (MockServerEngineTests/Conditions, MockServerTests/CommandLine).
public enum ConditionTiming {
    /// The longest a condition that should take `nominal` seconds may take in a test. A condition
    /// only ever adds time, so the lower bounds are exact; what a client adds (waiting for the CPU
    /// on a loaded machine, or ten times slower under a sanitizer) has no bound, so the upper
    /// bound is generous: it catches a condition that holds a client several times as long as it should.
    public static func slowest(_ nominal: Double) -> Double { nominal * 2 + 0.5 }
}
