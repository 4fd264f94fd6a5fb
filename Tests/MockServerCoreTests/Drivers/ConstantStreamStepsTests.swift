import Testing
import MockServerCore

@Suite("Constant stream steps: a reply worked out in advance, converted once")
struct ConstantStreamStepsTests {
    @Test("sends, pauses, closes and faults become the steps the plain performer makes, in order")
    func converts() throws {
        let replySteps: [ReplyStep<Never>] = [.send([1, 2]), .pause(.milliseconds(5)), .fault(.halfClose), .send([3]), .close]
        let steps = try #require(ConstantStreamSteps(replySteps)).steps
        guard steps.count == 5, case .send([1, 2]) = steps[0], case .pause(.milliseconds(5)) = steps[1],
              case .fault(.halfClose) = steps[2], case .send([3]) = steps[3], case .close(.script) = steps[4] else {
            Issue.record("converted to \(steps)")
            return
        }
    }

    @Test("no steps convert to none")
    func empty() throws {
        #expect(try #require(ConstantStreamSteps([])).steps.isEmpty)
    }

    @Test("conditions or a then need the connection: nothing is converted", arguments: [
        [ReplyStep<Never>.send([1]), .conditions(nil)],
        [.then { [.send([2])] }, .close],
    ])
    func needsConnection(_ replySteps: [ReplyStep<Never>]) {
        #expect(ConstantStreamSteps(replySteps) == nil)
    }
}
