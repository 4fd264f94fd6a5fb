import Testing
@_spi(HotPath) import MockServerCore

/// A connection's states: one value per type, made once, forgotten and handed back when it closes.
@Suite("Connection states")
struct ConnectionStatesTests {
    final class Counter: Sendable {
        let name: String
        init(_ name: String) { self.name = name }
    }

    @Test("a value is made by the first ask for its type and kept; another type gets its own")
    func madeOncePerType() {
        let states = ConnectionStates()
        var made = 0
        let first = states.state(Counter.self) { made += 1; return Counter("first") }
        let again = states.state(Counter.self) { made += 1; return Counter("second") }
        #expect(first === again && again.name == "first" && made == 1)
        #expect(states.state(Int.self) { 7 } == 7)
        #expect(states.state(Int.self) { 8 } == 7)
        // Another store is another connection's: nothing is shared.
        #expect(ConnectionStates().state(Counter.self) { Counter("other") }.name == "other")
    }

    class Base: @unchecked Sendable {}  // no stored state: nothing to guard
    final class Derived: Base, @unchecked Sendable {  // `payload` is a `let`: nothing to guard
        let payload = [1, 2, 3]
    }

    @Test("a value is kept under its static type: a subclass's metatype held as its superclass's is the superclass's key")
    func keyedByStaticType() {
        let states = ConnectionStates()
        let held: Base.Type = Derived.self
        let base = states.state(held) { Base() }
        // Under the metatype's dynamic type, this Base would be handed out as a Derived.
        let derived = states.state(Derived.self) { Derived() }
        #expect(derived.payload == [1, 2, 3])
        #expect(states.state(Base.self) { Base() } === base)
    }

    @Test("removeAll hands back every value once and forgets them: the next ask makes a new one")
    func removeAll() {
        let states = ConnectionStates()
        #expect(states.removeAll().isEmpty)
        let counter = states.state(Counter.self) { Counter("a") }
        _ = states.state(String.self) { "b" }
        let removed = states.removeAll()
        #expect(removed.count == 2)
        #expect(removed.contains { ($0 as? Counter) === counter } && removed.contains { $0 as? String == "b" })
        #expect(states.removeAll().isEmpty)
        #expect(states.state(Counter.self) { Counter("c") }.name == "c")
    }
}
