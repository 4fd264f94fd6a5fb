@_spi(HotPath) import MockServerCore
import Foundation
import Testing

/// Core's one reader of reply steps on its own: steps in, actions out, no connection.
@Suite("Reply interpreter")
struct ReplyInterpreterTests {
    typealias Interpreter = ReplyInterpreter<String>

    /// The actions of `interpreter` up to its end, written short (`send:ab`, `pause:2`, `out:x`, …).
    static func actions(_ interpreter: inout Interpreter, limit: Int = 50) -> [String] {
        var result: [String] = []
        for _ in 0..<limit {
            let action = interpreter.next()
            if case .end = action { return result }
            result.append(describe(action))
        }
        Issue.record("no end after \(limit) actions")
        return result
    }

    static func describe(_ action: ReplyAction<String>) -> String {
        switch action {
        case .send(let bytes): "send:\(String(decoding: bytes, as: UTF8.self))"
        case .pause(let duration): "pause:\(duration.components.seconds)"
        case .conditions(let conditions): conditions == nil ? "conditions:nil" : "conditions"
        case .output(let output): "out:\(output)"
        case .fault(let fault): "fault:\(fault)"
        case .close: "close"
        case .end: "end"
        }
    }

    static func send(_ text: String) -> ReplyStep<String> { .send(Array(text.utf8)) }

    @Test("every step kind comes out as its action, in order, then the end, again and again")
    func everyKind() {
        var interpreter = Interpreter([Self.send("a"), .pause(.seconds(2)), .conditions(nil), .conditions(NetworkConditions()),
                                       .output("x"), .fault(.dribble(bytesPerSecond: 10)), .then { [Self.send("b")] }, .close])
        #expect(!interpreter.isAtEnd)
        #expect(Self.actions(&interpreter) == ["send:a", "pause:2", "conditions:nil", "conditions", "out:x",
                                              "fault:dribble(bytesPerSecond: 10)", "send:b", "close"])
        #expect(interpreter.isAtEnd)
        for _ in 0..<3 {
            guard case .end = interpreter.next() else { Issue.record("an action after the end"); return }
        }
    }

    @Test("no steps: the end at once")
    func empty() {
        var interpreter = Interpreter([])
        #expect(interpreter.isAtEnd)
        #expect(!interpreter.waitsToWorkOut)
        #expect(Self.actions(&interpreter) == [])
    }

    @Test("one response, the commonest reply: its output, then the end")
    func oneOutput() {
        var interpreter = Interpreter([.output("r")])
        guard case .output("r") = interpreter.next() else { Issue.record("not the output"); return }
        #expect(interpreter.isAtEnd, "the end is known once the last step is out")
        guard case .end = interpreter.next() else { Issue.record("not the end"); return }
    }

    @Test("a then is worked out when reached, not before; its steps come before the rest")
    func thenWhenReached() {
        let counter = Counter()
        var interpreter = Interpreter([Self.send("a"), .then { counter.bump(); return [Self.send("b"), .output("c")] }, Self.send("d")])
        guard case .send = interpreter.next() else { Issue.record("not the first send"); return }
        #expect(counter.value == 0)
        #expect(interpreter.waitsToWorkOut)
        #expect(Self.actions(&interpreter) == ["send:b", "out:c", "send:d"])
        #expect(counter.value == 1, "worked out once")
    }

    @Test("thens in thens, a then that gives nothing, and a then as the last step")
    func nestedThens() {
        var interpreter = Interpreter([.then { [] }, .then { [.then { [Self.send("a")] }, Self.send("b")] }, Self.send("c"), .then { [Self.send("d")] }])
        #expect(Self.actions(&interpreter) == ["send:a", "send:b", "send:c", "send:d"])
    }

    @Test("pause then close: the pause, the close, and nothing after it (a then there never runs)")
    func pauseThenClose() {
        let counter = Counter()
        var interpreter = Interpreter([.pause(.seconds(1)), .close, Self.send("late"), .then { counter.bump(); return [] }])
        guard case .pause = interpreter.next() else { Issue.record("not the pause"); return }
        #expect(!interpreter.isAtEnd)
        guard case .close = interpreter.next() else { Issue.record("not the close"); return }
        #expect(interpreter.isAtEnd)
        #expect(!interpreter.waitsToWorkOut)
        #expect(Self.actions(&interpreter) == [])
        #expect(counter.value == 0)
    }

    @Test("a fault that ends what can be sent is the last action", arguments: [StreamFault.reset, .halfClose, .hang])
    func endingFault(_ fault: StreamFault) {
        #expect(Interpreter.ends(fault))
        var interpreter = Interpreter([Self.send("a"), .fault(fault), Self.send("b"), .close])
        #expect(Self.actions(&interpreter) == ["send:a", "fault:\(fault)"])
        #expect(interpreter.isAtEnd)
    }

    @Test("a fault that cuts the head, cuts the body or dribbles shapes the sends after it: they still come",
          arguments: [StreamFault.truncate(bytes: 3), .truncateBody(after: 3), .dribble(bytesPerSecond: 100)])
    func shapingFault(_ fault: StreamFault) {
        #expect(!Interpreter.ends(fault))
        var interpreter = Interpreter([.fault(fault), .output("head and body"), Self.send("more")])
        #expect(Self.actions(&interpreter) == ["fault:\(fault)", "out:head and body", "send:more"])
    }

    @Test("converting ahead of time stops where a then waits; the rest goes on from there later")
    func convertStopsAtThen() {
        let counter = Counter()
        var interpreter = Interpreter([Self.send("a"), .conditions(nil), .output("b"),
                                       .then { counter.bump(); return [Self.send("c"), .close] }, Self.send("never")])
        var rest: Interpreter?
        let first = interpreter.convert(send: { "send:" + String(decoding: $0, as: UTF8.self) }, pause: { _ in "pause" },
                                        conditions: { _ in nil }, output: { "out:" + $0 }, fault: { "fault:\($0)" }, close: { "close" },
                                        then: { rest = $0; return "then" })
        #expect(first == ["send:a", "out:b", "then"], "a conditions step the driver leaves out is left out")
        #expect(counter.value == 0, "the then waits for what came before to be carried out")
        #expect(!interpreter.isAtEnd)
        guard var rest else { Issue.record("no rest handed out"); return }
        #expect(rest.waitsToWorkOut)
        // Converting again from there (what came before is carried out) works the then out.
        let second = rest.convert(send: { "send:" + String(decoding: $0, as: UTF8.self) }, pause: { _ in "pause" },
                                  conditions: { _ in nil }, output: { "out:" + $0 }, fault: { "fault:\($0)" }, close: { "close" },
                                  then: { _ in "then again" })
        #expect(second == ["send:c", "close"])
        #expect(counter.value == 1)
        #expect(rest.isAtEnd)
    }

    @Test("converting a reply that starts with thens works them out at once: nothing comes before them")
    func convertLeadingThen() {
        var interpreter = Interpreter([.then { [.then { [Self.send("a")] }, .pause(.seconds(1))] }, .then { [Self.send("b")] }])
        let steps = interpreter.convert(send: { "send:" + String(decoding: $0, as: UTF8.self) }, pause: { _ in "pause" },
                                        conditions: { _ in nil }, output: { "out:" + $0 }, fault: { "fault:\($0)" }, close: { "close" },
                                        then: { _ in "then" })
        #expect(steps == ["send:a", "pause", "then"])
        #expect(!interpreter.isAtEnd)
    }

    @Test("converting a reply without a then takes it whole, to its end")
    func convertWhole() {
        var interpreter = Interpreter([.output("r"), .pause(.seconds(1)), .fault(.reset), .output("never")])
        let steps = interpreter.convert(send: { _ in "send" }, pause: { _ in "pause" }, conditions: { _ in "conditions" }, output: { "out:" + $0 },
                                        fault: { "fault:\($0)" }, close: { "close" }, then: { _ in "then" })
        #expect(steps == ["out:r", "pause", "fault:reset"])
        #expect(interpreter.isAtEnd)
    }

    @Test("converting one output (the one-response shortcut), or an output left last, gives it and ends; converting again gives nothing")
    func convertOneOutput() {
        func convert(_ interpreter: inout Interpreter) -> [String] {
            interpreter.convert(send: { _ in "send" }, pause: { _ in "pause" }, conditions: { _ in "conditions" }, output: { "out:" + $0 },
                                fault: { "fault:\($0)" }, close: { "close" }, then: { _ in "then" })
        }
        var one = Interpreter([.output("r")])
        #expect(convert(&one) == ["out:r"])
        #expect(one.isAtEnd)
        #expect(convert(&one) == [])
        #expect(Self.describe(one.next()) == "end")
        // An output left last after a then: the then's steps first, then the output, once.
        var afterThen = Interpreter([.send(Array("a".utf8)), .then { [Self.send("b")] }, .output("r")])
        let first = convert(&afterThen)
        #expect(first == ["send", "then"])
        #expect(afterThen.waitsToWorkOut)
        #expect(convert(&afterThen) == ["send", "out:r"])
        #expect(afterThen.isAtEnd)
        var lastOnly = Interpreter([.pause(.seconds(1)), .output("r")])
        #expect(Self.describe(lastOnly.next()) == "pause:1")
        #expect(convert(&lastOnly) == ["out:r"], "an output left last after steps read by next()")
        #expect(lastOnly.isAtEnd)
    }
}

/// A count a `then` bumps (its closure is `@Sendable`).
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func bump() { lock.withLock { count += 1 } }
}
