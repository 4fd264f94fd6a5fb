/// What the layers above one connection keep for it across its exchanges, one value per type: each
/// keeps its own under a type of its own (a script's per-connection storage, a protocol's state), so
/// that a driver can carry them without knowing who they belong to. Safe to use from any thread.
///
/// `@_spi(HotPath) public` with an `@inlinable` ``state(_:make:)`` (see `MutexStorage`): the script
/// glue asks for its storage at every HTTP request from another module, where a `package` generic
/// ran unspecialised, with a dynamic cast of the value (about 1,100 instructions a request). Users
/// write `@_spi(HotPath) import MockServerCore`.
///
/// `Sendable` as its ``Locked`` is: the entries are read and written only inside `withLock`,
/// under the mutex, and each value is `Sendable`.
@_spi(HotPath) public final class ConnectionStates: Sendable {
    /// A value kept under its type.
    @usableFromInline
    class Box {
        /// The value, as what ``removeAll()`` hands back.
        @usableFromInline var erased: any Sendable { fatalError("a subclass keeps the value") }
    }

    /// A value of type `State`.
    @usableFromInline
    final class TypedBox<State: Sendable>: Box {
        @usableFromInline let value: State

        @usableFromInline init(_ value: State) {
            self.value = value
        }

        @usableFromInline override var erased: any Sendable { value }
    }

    /// Each value under its type's identifier, in the order they were made: a connection has one or
    /// two, so a look-up compares their keys in turn rather than hashing.
    @usableFromInline let entries: Locked<[(key: ObjectIdentifier, box: Box)]>

    /// Creates the states of a new connection: none yet.
    public init() {
        entries = Locked([])
    }

    /// The value of type `State`, made by `make` the first time it is asked for (under the store's
    /// lock: `make` must not use this store). The key is the static type `State`, not the metatype
    /// passed: a subclass's metatype given as its superclass's type is kept under the superclass.
    @inlinable
    public func state<State: Sendable>(_ type: State.Type, make: () -> State) -> State {
        // `State.self`, not `type`: the box under the key must be a `TypedBox<State>` for the
        // unchecked downcast below, whatever dynamic metatype the caller holds.
        let key = ObjectIdentifier(State.self)
        return entries.withLock { entries in
            for entry in entries where entry.key == key {
                // Only a `TypedBox<State>` is kept under `State`'s key: no dynamic cast needed.
                return unsafeDowncast(entry.box, to: TypedBox<State>.self).value
            }
            let state = make()
            entries.append((key, TypedBox(state)))
            return state
        }
    }

    /// Forgets every value and returns them (in the order they were made), for a connection that closed.
    public func removeAll() -> [any Sendable] {
        entries.withLock { entries in
            defer { entries.removeAll() }
            return entries.map(\.box.erased)
        }
    }
}
