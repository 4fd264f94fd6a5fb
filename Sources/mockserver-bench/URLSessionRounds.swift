import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession requests per second through several sessions that answer the same URL with the same
/// three bytes, in alternating rounds of one run: each round runs every session one after another,
/// so that a burst of load from elsewhere on a shared machine falls on one round's sessions alike.
///
/// `mockserver-bench urlsession` compares a bare constant URLProtocol, the in-process path and
/// loopback with it; `Benchmarks/urlsession-mocker.sh` builds this file beside a checkout of
/// WeTransfer's Mocker to add that library's `MockingURLProtocol` to the same rounds.
struct URLSessionRounds {
    /// The URL every session is asked for; each answer must be 3 bytes.
    let url: URL
    /// Requests per session per round, spread over the lanes of one level of parallelism.
    let requests: Int

    /// Requests per second through `session`, `parallel` lanes at once.
    func rate(_ session: URLSession, parallel: Int) async throws -> Double {
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<parallel {
                group.addTask {
                    for _ in stride(from: lane, to: requests, by: parallel) {
                        let (data, _) = try await session.data(for: URLRequest(url: url))
                        guard data.count == 3 else { throw URLError(.badServerResponse) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = ContinuousClock.now - started
        return Double(requests) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// Runs `rounds` rounds of every session at each level of `parallelism` and prints one line a
    /// level: the mean rates by name, then each ratio in `ratios` (named `numerator/label`) as the
    /// ratio of the mean rates and as the median of the rounds' ratios, the steadier of the two.
    func compare(_ sessions: [(name: String, session: URLSession)], rounds: Int, parallelism: [Int],
                 ratios: [(numerator: String, denominator: String, label: String)]) async throws {
        for parallel in parallelism {
            var samples: [[Double]] = []
            for _ in 0..<rounds {
                var round: [Double] = []
                for entry in sessions { round.append(try await rate(entry.session, parallel: parallel)) }
                samples.append(round)
            }
            let rates = sessions.indices.map { index in samples.map { $0[index] }.reduce(0, +) / Double(rounds) }
            func index(_ name: String) -> Int { sessions.firstIndex { $0.name == name } ?? 0 }
            let named = zip(sessions, rates).map { "\($0.name)=\(String(format: "%.0f", $1))" }.joined(separator: " ")
            let means = ratios.map { ratio in
                "\(ratio.numerator)/\(ratio.label)=\(String(format: "%.2f", rates[index(ratio.numerator)] / rates[index(ratio.denominator)]))"
            }
            let medians = ratios.map { ratio in
                let perRound = samples.map { $0[index(ratio.numerator)] / $0[index(ratio.denominator)] }.sorted()
                return "\(ratio.numerator)/\(ratio.label)=\(String(format: "%.2f", perRound[perRound.count / 2]))"
            }
            print("urlsession: parallel=\(parallel) requests=\(requests) rounds=\(rounds) \(named) "
                  + means.joined(separator: " ") + " median-of-rounds: " + medians.joined(separator: " "))
        }
    }
}
