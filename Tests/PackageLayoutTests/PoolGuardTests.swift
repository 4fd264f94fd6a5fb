import Foundation
import Testing
import TestSupport

/// PoolGuard sees where a blocking test helper is called from: a test task on Swift's cooperative
/// pool, a thread of its own, or a test given `.offPool`.
@Suite("The cooperative pool guard")
struct PoolGuardTests {
    @Test("a test task with no executor preference is on the pool; offPool's thread is not")
    func seesThePool() async throws {
        #expect(PoolGuard.isOnCooperativePool)
        #expect(try await offPool { PoolGuard.isOnCooperativePool } == false)
    }

    @Test("a test with the .offPool trait is not on the pool", .offPool)
    func offPoolTrait() {
        #expect(!PoolGuard.isOnCooperativePool)
    }

    @Test("a test with the .cpuBound trait is not on the pool either, and prefers the compute pool, not the blocking one", .cpuBound)
    func cpuBoundTrait() {
        #expect(!PoolGuard.isOnCooperativePool)
        let executor = withUnsafeCurrentTask { $0?.unownedTaskExecutor }
        #expect(executor == TestThreadPool.compute.asUnownedTaskExecutor())
        #expect(executor != TestThreadPool.shared.asUnownedTaskExecutor())
    }

    @Test("a blocking helper called on the pool records an issue naming the call and the way out")
    func recordsAnIssue() {
        withKnownIssue {
            PoolGuard.check("TestClient.readLine")
        } matching: { issue in
            "\(issue)".contains("TestClient.readLine blocks a thread of Swift's cooperative pool") && "\(issue)".contains(".offPool")
        }
    }
}
