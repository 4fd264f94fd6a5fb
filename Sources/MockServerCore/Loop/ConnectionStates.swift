/// What the layers above one connection keep for it across its exchanges, one value per type: each
/// keeps its own under a type of its own (a script's per-connection storage, a protocol's state), so
/// that a driver can carry them without knowing who they belong to. Safe to use from any thread.
package final class ConnectionStates: Sendable {
    private let states = Locked<[ObjectIdentifier: any Sendable]>([:])

    /// Creates the states of a new connection: none yet.
    package init() {}

    /// The value of type `State`, made by `make` the first time it is asked for (under the store's
    /// lock: `make` must not use this store).
    package func state<State: Sendable>(_ type: State.Type, make: () -> State) -> State {
        states.withLock { states in
            if let state = states[ObjectIdentifier(type)] as? State { return state }
            let state = make()
            states[ObjectIdentifier(type)] = state
            return state
        }
    }

    /// Forgets every value and returns them (in no particular order), for a connection that closed.
    package func removeAll() -> [any Sendable] {
        states.withLock { states in
            defer { states.removeAll() }
            return Array(states.values)
        }
    }
}
