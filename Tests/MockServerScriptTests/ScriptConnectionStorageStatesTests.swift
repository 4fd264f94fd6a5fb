import Testing
@_spi(HotPath) import MockServerCore
import MockServerScript

/// A connection's storage makes the store of its protocols' states only when one is first kept
/// (most connections never keep one); the states behave as before either way.
@Suite("A script connection's protocol states")
struct ScriptConnectionStorageStatesTests {
    /// A state that counts the closes it hears.
    final class Resource: ScriptConnectionResource, @unchecked Sendable {
        private let closes = Locked(0)
        var closeCount: Int { closes.withLock { $0 } }
        func connectionClosed() { closes.withLock { $0 += 1 } }
    }

    @Test("a storage that never kept a state closes quietly, and keeps its session and values")
    func noStates() {
        let storage = ScriptConnectionStorage(connectionID: 3)
        storage.session.responseSet = "b"
        storage.connectionClosed()
        storage.connectionClosed()
        #expect(storage.session.responseSet == "b")
        #expect(storage.session.connectionID == 3)
    }

    @Test("a state is made on the first ask, the same one after; a resource hears the close once, and a state asked for after it is new")
    func madeOnFirstAsk() {
        let storage = ScriptConnectionStorage(connectionID: 1)
        var made = 0
        let first = storage.state(Resource.self) { made += 1; return Resource() }
        let second = storage.state(Resource.self) { made += 1; return Resource() }
        #expect(first === second)
        #expect(made == 1)
        #expect(storage.state(String.self) { "kept" } == "kept")
        #expect(storage.state(String.self) { "not this" } == "kept")
        storage.connectionClosed()
        #expect(first.closeCount == 1)
        storage.connectionClosed()
        #expect(first.closeCount == 1)
        let third = storage.state(Resource.self) { made += 1; return Resource() }
        #expect(third !== first)
        #expect(made == 2)
    }
}
