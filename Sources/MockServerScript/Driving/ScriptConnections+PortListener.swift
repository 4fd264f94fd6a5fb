import MockServerCore

extension ScriptConnections {
    /// A listener a protocol binds beside the server's main port, whose connections a driver of
    /// its own serves (``Driver``), and what its bound port means to the protocol's scripts.
    ///
    /// ```swift
    /// let totals = ScriptConnections.PortListener(values: { ScriptSettings([TotalsPort(port: $0)]) }) { _ in TotalsDriver() }
    /// connections = ScriptConnections.driven { _ in CounterDriver() }.adding(totals)
    /// ```
    public struct PortListener: Sendable {
        /// The listener as the server binds it.
        package let listener: ScriptListener

        /// A listener whose connections `makeDriver` serves.
        ///
        /// - Parameters:
        ///   - maximumInput: the most bytes a driver may leave unconsumed (``driven(maximumInput:by:)``);
        ///     `nil` for the server's `maximumLineLength`.
        ///   - values: the substitution values its bound port gives, kept in
        ///     ``SubstitutionContext/protocolValues`` for the protocol's variables and drivers;
        ///     none by default.
        ///   - makeDriver: a new driver for each connection it accepts.
        public init<D: Driver>(maximumInput: Int? = nil, values: @escaping @Sendable (_ port: UInt16) -> ScriptSettings = { _ in ScriptSettings() },
                               driver makeDriver: @escaping @Sendable (DriverContext) -> D) {
            precondition(maximumInput.map { $0 > 0 } ?? true, "maximumInput is \(maximumInput ?? 0): it takes 1 or more")
        // Erased here, so that the closures below do not capture `D` (see `ProtocolDriverAdapter`).
        let erased: @Sendable (DriverContext) -> any Driver = makeDriver
            listener = ScriptListener(values: values) { socket, loop, context in
                let driverContext = DriverContext(settings: context.settings, values: context.base)
                let limit = maximumInput ?? context.server.maximumLineLength
                return Listener(socket: socket, loop: loop) { [unowned loop] client in
                    try StreamConnection(socket: client, loop: loop, driver: ProtocolDriverAdapter(driver: erased(driverContext), limit: limit)).start()
                }
            }
        }
    }
}
