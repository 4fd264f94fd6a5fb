import Testing
import TestSupport
@testable import MockServerStubs
@testable import MockServerScript

@Suite("Stub index", .cpuBound)
struct StubIndexTests {
    private func stub(_ sequence: Int, _ method: String, _ target: String) -> Stub {
        Stub(sequence: sequence, method: method, target: StubTarget(target))
    }

    @Test("a request's candidates do not grow with the number of stubs: 10 or 10,000, the same few")
    func candidatesStayFew() throws {
        for count in [10, 10_000] {
            var index = StubIndex()
            for number in 0..<count {
                index.insert(stub(number, "GET", number.isMultiple(of: 2) ? "/literal/\(number)" : "/template/:id/\(number)"))
            }
            index.insert(stub(count, "POST", "/literal/4"))
            #expect(index.candidates(method: "GET", path: "/literal/4").map(\.description) == ["GET /literal/4"])
            #expect(index.candidates(method: "GET", path: "/template/x/\(count - 1)").map(\.description) == ["GET /template/:id/\(count - 1)"])
            #expect(index.candidates(method: "get", path: "/nothing/here").isEmpty)
        }
    }

    @Test("candidates come most recent first, templates and literals together, patterns always")
    func order() throws {
        var index = StubIndex()
        index.insert(stub(1, "GET", "/a/:x"))
        index.insert(stub(2, "GET", "/a/b"))
        index.insert(Stub(sequence: 3, method: "GET", target: .pattern(try InputPattern("^/z"))))
        index.insert(stub(4, "GET", "/a/:y"))
        #expect(index.candidates(method: "GET", path: "/a/b").map(\.sequence) == [4, 3, 2, 1])
        #expect(index.candidates(method: "GET", path: "/a/c").map(\.sequence) == [4, 3, 1])
    }

    @Test("literal segments are found whether searched in turn or indexed: below, at and past the switch")
    func literalsAcrossTheSwitch() {
        for count in [1, 8, 9, 20] {
            var index = StubIndex()
            for number in 0..<count { index.insert(stub(number, "GET", "/s\(number)/x")) }
            // A second stub under an existing segment shares its node, after the index is made too.
            index.insert(stub(count, "GET", "/s0/y"))
            for number in 0..<count {
                #expect(index.candidates(method: "GET", path: "/s\(number)/x").map(\.sequence) == [number], "count \(count)")
            }
            #expect(index.candidates(method: "GET", path: "/s0/y").map(\.sequence) == [count])
            #expect(index.candidates(method: "GET", path: "/s\(count)/x").isEmpty)
            #expect(index.candidates(method: "PUT", path: "/s0/x").isEmpty)
        }
    }
}
