import MockServerCore

/// A protocol's own ``ScriptConnections/Driver`` served as a connection's ``StreamDriver``: it
/// keeps the bytes the driver has not consumed, bounded by `limit`, hands them to the driver as
/// one slice of its buffer, and turns the driver's actions into the connection's steps.
///
/// The driver is held as an existential: a generic adapter made in the `@Sendable` closure that
/// makes each connection's driver would capture the driver's metatype, which Swift 6.2 warns is not
/// `Sendable`. One existential call per read costs little beside the read. The buffer
/// (``UnconsumedInput``) is reused across reads, and the driver's slice shares its storage.
package final class ProtocolDriverAdapter: StreamDriver {
    /// Where the connection's input is.
    private enum Phase {
        /// Input arrives and the driver reads it.
        case reading
        /// The peer finished sending and the driver has had its last say: the connection closes
        /// once the steps it asked for have run.
        case ended
    }

    private var driver: any ScriptConnections.Driver
    /// Received bytes the driver has not consumed yet.
    private var input = UnconsumedInput()
    /// The most unconsumed bytes the driver may leave waiting for more.
    private let limit: Int
    private var phase = Phase.reading

    package init(driver: any ScriptConnections.Driver, limit: Int) {
        self.driver = driver
        self.limit = limit
    }

    package func opened(_ connection: StreamConnection) -> [StreamStep] {
        steps(for: driver.opened(connection: connection.id), on: connection)
    }

    package func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection) {
        input.append(bytes)
    }

    package func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        guard case .reading = phase else { return .finish(.peerClosed) }
        while true {
            let (actions, consumed) = input.read { driver.read(&$0) }
            if !actions.isEmpty { return .steps(steps(for: actions, on: connection)) }
            if !consumed { break }
        }
        if inputEnded {
            phase = .ended
            let (actions, _) = input.read { driver.inputEnded(&$0) }
            input.removeAll()
            return actions.isEmpty ? .finish(.peerClosed) : .steps(steps(for: actions, on: connection))
        }
        if input.count > limit {
            connection.log(.warning, "\(input.count) bytes of input wait unconsumed, past the limit of \(limit); closing")
            return .finish(.inputTooLong(limit: limit))
        }
        return .needInput
    }

    package func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {
        driver.closed(reason: reason)
    }

    /// The connection's steps for `actions`; a record is recorded as the list is taken up.
    private func steps(for actions: [ScriptConnections.Action], on connection: StreamConnection) -> [StreamStep] {
        var steps: [StreamStep] = []
        steps.reserveCapacity(actions.count)
        for action in actions {
            switch action {
            case .send(let bytes): steps.append(.send(bytes))
            case .record(let bytes): connection.recordInput(InputUnit(bytes: bytes), response: nil)
            case .pause(let duration): steps.append(.pause(duration))
            case .close(let reason): steps.append(.close(.finished(reason)))
            }
        }
        return steps
    }
}
