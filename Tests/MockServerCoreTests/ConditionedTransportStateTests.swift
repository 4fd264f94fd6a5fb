import MockServerCore
import Testing

/// The conditioned transport's state on its own: times passed in, no clock, no socket, no loop.
@Suite("Conditioned transport state machine")
struct ConditionedTransportStateTests {
    typealias Machine = ConditionedTransportState

    /// A millisecond in the machine's nanoseconds.
    static let ms: UInt64 = 1_000_000
    /// The time the tests start at.
    static let t0: UInt64 = 1_000_000_000

    /// Conditions with `toClient` and `toServer` shaped by `shape`.
    private func conditions(_ shape: (inout NetworkConditions.Direction) -> Void) -> NetworkConditions {
        var conditions = NetworkConditions()
        shape(&conditions.toClient)
        shape(&conditions.toServer)
        return conditions
    }

    /// The connection writes `count` bytes, due at `due`.
    @discardableResult
    private func write(_ machine: inout Machine, _ count: Int, due: UInt64) -> Machine.WriteAction {
        let bytes = [UInt8](repeating: 7, count: count)
        return bytes.withUnsafeBytes { machine.write($0, due: due) }
    }

    /// Releases what may go at `now` into a socket that takes `takes` bytes a write (all when nil);
    /// the bytes written, and how the releases stopped.
    private func pump(_ machine: inout Machine, now: UInt64, takes: Int? = nil) -> (written: Int, stop: Machine.WrittenAction?) {
        var written = 0
        while case .write(_, _, let count) = machine.release(now: now) {
            let taken = min(count, takes ?? count)
            let result: Socket.WriteResult = taken == 0 ? .wouldBlock : .written(taken)
            let action = machine.wrote(result, now: now)
            if case .written(let count) = result { written += count }
            guard action == .next else { return (written, action) }
        }
        return (written, nil)
    }

    @Test("latency: a write leaves when due, and the release timer is set for then, once")
    func latency() {
        var machine = Machine(conditions: conditions { $0.latency = .milliseconds(40) }, now: Self.t0)
        #expect(write(&machine, 100, due: Self.t0 + 40 * Self.ms) == .written(100))
        #expect(machine.release(now: Self.t0) == .none)
        #expect(machine.pumpTimer(now: Self.t0) == Self.t0 + 40 * Self.ms)
        #expect(machine.pumpTimer(now: Self.t0) == nil, "a timer set for then is not set twice")
        machine.pumpTimerFired()
        #expect(pump(&machine, now: Self.t0 + 40 * Self.ms).written == 100)
        #expect(machine.outgoing.count == 0)
        #expect(machine.pumpTimer(now: Self.t0 + 40 * Self.ms) == nil, "nothing waits")
    }

    @Test("a later write never leaves before an earlier one (jitter cannot reorder)")
    func order() {
        var machine = Machine(conditions: NetworkConditions(), now: Self.t0)
        write(&machine, 10, due: Self.t0 + 50 * Self.ms)
        write(&machine, 10, due: Self.t0 + 20 * Self.ms)
        #expect(machine.release(now: Self.t0 + 30 * Self.ms) == .none)
        #expect(pump(&machine, now: Self.t0 + 50 * Self.ms).written == 20)
    }

    @Test("bandwidth: a twentieth of a second's bytes at most at once, then as the allowance refills")
    func bandwidth() {
        var machine = Machine(conditions: conditions { $0.bytesPerSecond = 1_000 }, now: Self.t0)
        write(&machine, 200, due: Self.t0)
        #expect(pump(&machine, now: Self.t0).written == 0, "the allowance starts empty")
        let second = Self.t0 + 1_000 * Self.ms
        #expect(pump(&machine, now: second).written == 50, "the burst is 50 bytes")
        #expect(machine.pumpTimer(now: second) == second + 1_000_001, "the next byte's time")
        #expect(pump(&machine, now: second + 10 * Self.ms).written == 10)
    }

    @Test("slicing: a slice, then nothing until the slice delay has passed")
    func slicing() {
        var machine = Machine(conditions: conditions { $0.sliceSize = 10; $0.sliceDelay = .milliseconds(5) }, now: Self.t0)
        write(&machine, 25, due: Self.t0)
        #expect(pump(&machine, now: Self.t0).written == 10)
        #expect(machine.release(now: Self.t0 + 4 * Self.ms) == .none)
        #expect(machine.pumpTimer(now: Self.t0) == Self.t0 + 5 * Self.ms)
        #expect(pump(&machine, now: Self.t0 + 5 * Self.ms).written == 10)
        #expect(pump(&machine, now: Self.t0 + 10 * Self.ms).written == 5)
    }

    @Test("the data limit to the client: the bytes up to it leave, the rest vanish, and the connection is to end")
    func dataLimitToClient() {
        var machine = Machine(conditions: conditions { $0.dataLimit = 15 }, now: Self.t0)
        write(&machine, 10, due: Self.t0)
        write(&machine, 10, due: Self.t0)
        let result = pump(&machine, now: Self.t0)
        #expect(result.written == 15 && result.stop == .limitReached(15))
        #expect(machine.lifecycle == .open(.limitReached(15)))
        #expect(machine.outgoing.count == 0)
        #expect(write(&machine, 30, due: Self.t0) == .written(30), "past the limit, bytes vanish")
        #expect(machine.outgoing.count == 0)
        #expect(machine.endsConnection(generation: nil) == true)
    }

    @Test("new conditions count the data limit afresh and void the earlier timers")
    func change() {
        var machine = Machine(conditions: conditions { $0.dataLimit = 10 }, now: Self.t0)
        write(&machine, 8, due: Self.t0)
        #expect(pump(&machine, now: Self.t0).written == 8)
        let generation = machine.generation
        machine.change(to: conditions { $0.dataLimit = 10 }, now: Self.t0 + Self.ms)
        #expect(machine.endsConnection(generation: generation) == false, "the earlier conditions' timeout is void")
        write(&machine, 10, due: Self.t0)
        let result = pump(&machine, now: Self.t0 + Self.ms)
        #expect(result.written == 10 && result.stop == .limitReached(10))
        let current = machine.generation
        #expect(machine.endsConnection(generation: current) == true)
    }

    @Test("a full socket: releases stop, the socket is watched for writing and no timer is set, until it is writable")
    func socketFull() {
        var machine = Machine(conditions: NetworkConditions(), now: Self.t0)
        write(&machine, 100, due: Self.t0)
        let result = pump(&machine, now: Self.t0, takes: 0)
        #expect(result.written == 0 && result.stop == .blocked)
        #expect(machine.socketFull)
        #expect(machine.socketInterest.contains(.write))
        #expect(machine.release(now: Self.t0) == .none)
        #expect(machine.pumpTimer(now: Self.t0) == nil)
        machine.socketWritable()
        #expect(!machine.socketFull)
        #expect(pump(&machine, now: Self.t0, takes: 30).written == 100)
    }

    @Test("the sending side shut with bytes queued: the inner side shuts once they are gone, once; with none queued, at once")
    func shutdownAfterDrain() {
        var machine = Machine(conditions: NetworkConditions(), now: Self.t0)
        write(&machine, 10, due: Self.t0 + Self.ms)
        #expect(machine.shutdownWrite() == false)
        #expect(machine.lifecycle == .open(.shutAfterDrain(.ready)))
        #expect(machine.releasesDone() == false, "bytes still wait")
        _ = pump(&machine, now: Self.t0 + Self.ms, takes: 0)
        #expect(machine.lifecycle == .open(.shutAfterDrain(.full)))
        machine.socketWritable()
        #expect(pump(&machine, now: Self.t0 + Self.ms).written == 10)
        #expect(machine.releasesDone() == true)
        #expect(machine.releasesDone() == false)
        var empty = Machine(conditions: NetworkConditions(), now: Self.t0)
        #expect(empty.shutdownWrite() == true)
        #expect(empty.lifecycle == .open(.flowing(.ready)))
    }

    @Test("a failed socket write: the queue is dropped and every later write fails so")
    func writeFailure() {
        var machine = Machine(conditions: NetworkConditions(), now: Self.t0)
        write(&machine, 10, due: Self.t0)
        let error = SocketCallError(call: "write", code: 32)
        guard case .write = machine.release(now: Self.t0) else { Issue.record("nothing released"); return }
        #expect(machine.wrote(.failed(error), now: Self.t0) == .failed)
        #expect(machine.outgoing.count == 0)
        #expect(write(&machine, 5, due: Self.t0) == .failed(error))
        #expect(machine.shutdownWrite() == true)
    }

    @Test("the outgoing queue holds queueLimit bytes: a write takes what fits, the next blocks")
    func queueLimit() {
        var machine = Machine(conditions: conditions { $0.latency = .seconds(1) }, now: Self.t0)
        machine.want(.write)
        #expect(machine.hasRoomForWriter)
        #expect(write(&machine, Machine.queueLimit + 10, due: Self.t0) == .written(Machine.queueLimit))
        #expect(write(&machine, 1, due: Self.t0) == .wouldBlock)
        #expect(!machine.hasRoomForWriter)
        #expect(!machine.socketInterest.contains(.write), "a full queue does not watch the socket for writing")
    }

    @Test("closed once: queues dropped, a second close, a timer or a limit end do nothing")
    func close() {
        var machine = Machine(conditions: NetworkConditions(), now: Self.t0)
        machine.want(.read)
        write(&machine, 10, due: Self.t0)
        #expect(machine.close() == true)
        #expect(machine.outgoing.count == 0)
        #expect(machine.close() == false)
        let current = machine.generation
        #expect(machine.endsConnection(generation: current) == false)
        #expect(machine.endsConnection(generation: nil) == false)
        #expect(machine.interestChange == nil)
        #expect(!machine.readsSocket)
        #expect(machine.deliveryTimer(now: Self.t0) == nil)
        #expect(machine.deliveryTimerFired() == false)
        write(&machine, 10, due: Self.t0)
        #expect(machine.release(now: Self.t0) == .none)
    }

    // MARK: Incoming

    /// The machine reads `count` bytes from the socket, due at `due`.
    private func receive(_ machine: inout Machine, _ count: Int, due: UInt64) {
        machine.read(.bytes(count), bytes: { [UInt8](repeating: 1, count: count) }, due: due)
    }

    /// What the connection reads at `now`, with a buffer of `size` bytes.
    private func deliver(_ machine: inout Machine, now: UInt64, size: Int = 1 << 16) -> Socket.ReadResult {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        defer { buffer.deallocate() }
        return machine.deliver(into: buffer, now: now)
    }

    @Test("incoming latency: the bytes are handed on when due; the connection hears then, if it wants input")
    func incomingLatency() {
        var machine = Machine(conditions: conditions { $0.latency = .milliseconds(30) }, now: Self.t0)
        receive(&machine, 12, due: Self.t0 + 30 * Self.ms)
        #expect(machine.deliveryTimer(now: Self.t0) == nil, "the connection does not want input")
        machine.want(.read)
        #expect(machine.deliveryTimer(now: Self.t0) == Self.t0 + 30 * Self.ms)
        #expect(deliver(&machine, now: Self.t0 + 29 * Self.ms) == .wouldBlock)
        #expect(machine.deliveryTimerFired() == true)
        #expect(deliver(&machine, now: Self.t0 + 30 * Self.ms, size: 5) == .bytes(5))
        #expect(deliver(&machine, now: Self.t0 + 30 * Self.ms) == .bytes(7))
    }

    @Test("the peer's end behind bytes still waiting: the bytes first, then the end, not before it is due")
    func endBehindBytes() {
        var machine = Machine(conditions: NetworkConditions(), now: Self.t0)
        receive(&machine, 4, due: Self.t0 + 10 * Self.ms)
        machine.read(.endOfFile, bytes: { [] }, due: Self.t0)
        #expect(machine.receiving == .ended(due: Self.t0 + 10 * Self.ms, result: .endOfFile), "the end never precedes the bytes")
        #expect(!machine.readsSocket)
        #expect(!machine.socketInterest.contains(.read))
        #expect(deliver(&machine, now: Self.t0) == .wouldBlock)
        #expect(deliver(&machine, now: Self.t0 + 10 * Self.ms) == .bytes(4))
        #expect(deliver(&machine, now: Self.t0 + 10 * Self.ms) == .endOfFile)
    }

    @Test("the data limit to the server: the bytes up to it, then the end")
    func dataLimitToServer() {
        var machine = Machine(conditions: conditions { $0.dataLimit = 6 }, now: Self.t0)
        receive(&machine, 10, due: Self.t0)
        #expect(deliver(&machine, now: Self.t0) == .bytes(6))
        #expect(deliver(&machine, now: Self.t0) == .endOfFile)
    }

    @Test("a full incoming queue stops the socket's reading")
    func incomingFull() {
        var machine = Machine(conditions: conditions { $0.latency = .seconds(1) }, now: Self.t0)
        #expect(machine.readsSocket)
        receive(&machine, Machine.queueLimit, due: Self.t0)
        #expect(!machine.readsSocket)
        #expect(!machine.socketInterest.contains(.read))
    }

    @Test("interest: applied once, changed only when it differs")
    func interest() {
        var machine = Machine(conditions: NetworkConditions(), now: Self.t0)
        #expect(machine.interestChange == .read)
        machine.interestApplied(.read)
        #expect(machine.interestChange == nil)
        machine.want(.write)
        #expect(machine.interestChange == [.read, .write])
    }
}
