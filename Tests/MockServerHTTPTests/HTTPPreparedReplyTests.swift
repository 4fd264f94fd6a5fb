import Testing
import MockServerCore
import MockServerHTTP

/// ``HTTPReply/init(prepared:name:)``: a reply of steps worked out in advance holds them and the
/// connection's steps for them, and gives the steps to a driver that reads reply steps.
@Suite("HTTP replies worked out in advance")
struct HTTPPreparedReplyTests {
    @Test("the connection's steps are the prepared ones, shared; the reply steps are the same steps in HTTP's output")
    func prepared() throws {
        let prepared = try #require(ConstantStreamSteps([.pause(.milliseconds(5)), .send([1, 2]), .close]))
        let reply = HTTPReply(prepared: prepared, name: "fixed")
        #expect(reply.name == "fixed")
        #expect(!reply.isUnexpected)
        let streamSteps = try #require(reply.preparedStreamSteps)
        guard streamSteps.count == 3, case .pause(.milliseconds(5)) = streamSteps[0], case .send([1, 2]) = streamSteps[1],
              case .close(.script) = streamSteps[2] else {
            Issue.record("stream steps \(streamSteps)")
            return
        }
        let steps = reply.steps
        guard steps.count == 3, case .pause(.milliseconds(5)) = steps[0], case .send([1, 2]) = steps[1], case .close = steps[2] else {
            Issue.record("reply steps \(steps)")
            return
        }
    }

    @Test("a reply of its own steps has no prepared steps, nor one whose steps were replaced")
    func ownSteps() throws {
        #expect(HTTPReply(HTTPMockResponse(body: [1])).preparedStreamSteps == nil)
        var replaced = HTTPReply(prepared: try #require(ConstantStreamSteps([.send([1])])), name: nil)
        replaced.steps = [.send([2])]
        #expect(replaced.preparedStreamSteps == nil)
        guard replaced.steps.count == 1, case .send([2]) = replaced.steps[0] else {
            Issue.record("steps \(replaced.steps)")
            return
        }
    }
}
