import MockServerCore

extension ScriptConnections {
    /// Connections served by a driver of the protocol's own, not the script interpreter: each
    /// connection gets a new driver, made with the server's settings and substitution values.
    ///
    /// ```swift
    /// func connections(framing: Framing) -> ScriptConnections {
    ///     .driven(maximumInput: 4096) { context in CounterDriver(settings: context.settings[CounterSettings.self] ?? .init()) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - maximumInput: the most bytes a driver may leave unconsumed while it waits for more
    ///     (one line, one frame): past it the connection closes as
    ///     ``Transcript/CloseReason/inputTooLong(limit:)``. At least 1; `nil` (the default) for the
    ///     server's `maximumLineLength`.
    ///   - makeDriver: a new driver for each connection.
    public static func driven<D: Driver>(maximumInput: Int? = nil, by makeDriver: @escaping @Sendable (DriverContext) -> D) -> ScriptConnections {
        precondition(maximumInput.map { $0 > 0 } ?? true, "maximumInput is \(maximumInput ?? 0): it takes 1 or more")
        // Erased here, so that the closures below do not capture `D` (see `ProtocolDriverAdapter`).
        let erased: @Sendable (DriverContext) -> any Driver = makeDriver
        return ScriptConnections(outputType: Never.self) { context in
            let driverContext = DriverContext(settings: context.settings, values: context.base)
            let limit = maximumInput ?? context.server.maximumLineLength
            return { ProtocolDriverAdapter(driver: erased(driverContext), limit: limit) }
        }
    }

    /// The same connections with `listener` bound beside the main port (after those they have):
    /// the first listener of a server binds its configuration's `dataPort` (the server's
    /// `dataPort` then), any other a port the system picks.
    public func adding(_ listener: PortListener) -> ScriptConnections {
        adding(listener.listener)
    }
}
