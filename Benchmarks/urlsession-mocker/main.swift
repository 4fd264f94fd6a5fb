// The in-process row beside WeTransfer's Mocker, a URLProtocol stub library a user might pick
// instead: `Benchmarks/urlsession-mocker.sh` builds this file with Sources/mockserver-bench's
// URLSessionRounds.swift and ConstantURLProtocol.swift against a checkout of Mocker (MOCKER_DIR),
// since MockServer has no package dependencies and CI cannot reach GitHub.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Mocker
import MockServer

let requests = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 1_500
let roundCount = CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 9
let server = HTTPMockServer()
server.stubRequest("GET", "/x").andReturn(200).withBody("ok\n")
try server.start()
let url = server.url(for: "/x")
// The same answer from each: 200, a 3-byte body (Mocker adds its Content-Type header).
Mock(url: url, contentType: .html, statusCode: 200, data: [.get: Data("ok\n".utf8)]).register()

let constant = URLSessionConfiguration.ephemeral
constant.protocolClasses = [ConstantURLProtocol.self] + (constant.protocolClasses ?? [])
let mocker = URLSessionConfiguration.ephemeral
mocker.protocolClasses = [MockingURLProtocol.self] + (mocker.protocolClasses ?? [])
let sessions: [(name: String, session: URLSession)] = [
    ("constant-urlprotocol", URLSession(configuration: constant)),
    ("mocker", URLSession(configuration: mocker)),
    ("in-process", try server.makeInProcessSession()),
]
try await URLSessionRounds(url: url, requests: requests)
    .compare(sessions, rounds: roundCount, parallelism: [1, 8],
             ratios: [("in-process", "mocker", "mocker"), ("in-process", "constant-urlprotocol", "constant"),
                      ("mocker", "constant-urlprotocol", "constant")])
server.stop()
