extension Duration {
    /// `seconds` (fractions allowed) as a duration, rounded to the nanosecond: how files, the
    /// command line and the control API turn their seconds into time.
    ///
    /// ```swift
    /// let latency = Duration.rounded(seconds: 0.15)   // .milliseconds(150)
    /// ```
    package static func rounded(seconds: Double) -> Duration {
        .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// The duration in seconds, fractions included: how the control API, the transcript's JSON
    /// and messages write a time.
    ///
    /// ```swift
    /// let seconds = Duration.milliseconds(150).inSeconds   // 0.15
    /// ```
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
