import MockServerCore

extension ScriptConnections {
    /// What a protocol's own ``Driver`` is made with, once per connection: the server's settings
    /// and the substitution values of its bound ports.
    ///
    /// ```swift
    /// .driven { context in CounterDriver(limit: context.settings[CounterSettings.self]?.limit ?? 10) }
    /// ```
    public struct DriverContext: Sendable {
        /// The server's settings, each protocol's in its own type: the configuration's, with what
        /// the server's protocols added as they composed its connections.
        public let settings: ScriptSettings
        /// The server's address, name, main port and clock, and what each of the protocol's own
        /// listeners' ports means (``PortListener``'s values, in ``SubstitutionContext/protocolValues``).
        public let values: SubstitutionContext

        /// A context of `settings` and `values` (for a driver's unit tests; the server makes its own).
        public init(settings: ScriptSettings = ScriptSettings(), values: SubstitutionContext = SubstitutionContext()) {
            self.settings = settings
            self.values = values
        }
    }
}
