@_spi(HotPath) import MockServerCore

/// Telling IMAP sessions that a mailbox changed: a session that is idle (IDLE) or waits for its
/// next command registers, and is called after any change to its address's folders (a delivery,
/// a flag stored, an expunge, a folder made or renamed) by whichever session or protocol made it.
extension MailStore {
    /// A registration made by ``observe(_:_:)``; ``stopObserving(_:)`` ends it.
    package struct Observation: Sendable, Hashable {
        let address: MailboxAddress
        let id: UInt64
    }

    /// Calls `changed` (outside the store's lock, on the changing thread) after every change to the
    /// folders of `address`, until ``stopObserving(_:)``.
    package func observe(_ address: String, _ changed: @escaping @Sendable () -> Void) -> Observation {
        let address = MailboxAddress(address)
        return state.withLock { state in
            state.nextObserverID += 1
            state.observers[address, default: [:]][state.nextObserverID] = changed
            return Observation(address: address, id: state.nextObserverID)
        }
    }

    /// Ends a registration; the callback may still run once if a change is being told.
    package func stopObserving(_ observation: Observation) {
        state.withLock { state in
            state.observers[observation.address]?[observation.id] = nil
            if state.observers[observation.address]?.isEmpty == true { state.observers[observation.address] = nil }
        }
    }

    /// How many registrations are live (tests check that sessions end theirs).
    package var observerCount: Int { state.withLock { $0.observers.values.reduce(0) { $0 + $1.count } } }

    /// Runs `body` under the lock, then tells the observers of `addresses` (every address when nil).
    @discardableResult
    func changing<T>(_ addresses: [MailboxAddress]?, _ body: (inout State) -> T) -> T {
        let (result, observers) = state.withLock { state in
            let result = body(&state)
            return (result, addresses.map { state.observers(of: $0) } ?? state.observers.values.flatMap(\.values))
        }
        for observer in observers { observer() }
        return result
    }
}

extension MailStore.State {
    /// The callbacks registered for any of `addresses`.
    func observers(of addresses: [MailboxAddress]) -> [@Sendable () -> Void] {
        guard !observers.isEmpty else { return [] }
        var found: [@Sendable () -> Void] = []
        for address in Set(addresses) { found.append(contentsOf: observers[address]?.values ?? [:].values) }
        return found
    }
}
