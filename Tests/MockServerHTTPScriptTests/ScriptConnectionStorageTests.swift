import Testing
@_spi(HotPath) import MockServerCore
import MockServerHTTP
import MockServerHTTPScript
import MockServerScript

/// The HTTP layer carries a connection's states without knowing the script; the script glue keeps
/// its storage there, so that a response set chosen on a connection lasts for its next requests.
@Suite("A script's storage in an HTTP connection's states")
struct ScriptConnectionStorageTests {
    static let environment = ServerEnvironment(transcript: Transcript(), logger: .disabled)

    static func context(connectionID: Int, states: ConnectionStates?) -> HTTPRequestContext {
        HTTPRequestContext(connectionID: connectionID, peer: nil, local: nil, environment: environment,
                           states: states)
    }

    @Test("requests of one connection share one storage, numbered as the connection; another connection gets its own")
    func onePerConnection() {
        let states = ConnectionStates()
        let first = Self.context(connectionID: 4, states: states).scriptStorage
        first.session.responseSet = "logged in"
        let second = Self.context(connectionID: 4, states: states).scriptStorage
        #expect(first === second)
        #expect(second.session.responseSet == "logged in")
        #expect(second.session.connectionID == 4)
        let other = Self.context(connectionID: 5, states: ConnectionStates()).scriptStorage
        #expect(other !== first && other.session.connectionID == 5 && other.session.responseSet != "logged in")
        // A context made without states (a single in-process request) has a storage of its own.
        #expect(Self.context(connectionID: 4, states: nil).scriptStorage !== first)
    }
}
