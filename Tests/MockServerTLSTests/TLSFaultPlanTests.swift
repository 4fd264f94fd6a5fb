import MockServerTLS
import Testing

/// What each TLS fault asks the transport to do, decided apart from the record layer.
@Suite("TLS fault plan")
struct TLSFaultPlanTests {
    @Test("no fault: a held ClientHello fails as OpenSSL says, no note on a failed handshake, close_notify at the end")
    func none() {
        let plan = TLSFaultPlan.none
        #expect(plan.heldHello == .fail)
        #expect(plan.handshakeFailureNote == nil)
        #expect(plan.ending == .closeNotify)
    }

    @Test("each handshake fault's decision and transcript note name the fault", arguments: TLSSettings.HandshakeFault.allCases)
    func handshakeFaults(fault: TLSSettings.HandshakeFault) {
        let plan = TLSFaultPlan(handshake: fault)
        switch (fault, plan.heldHello) {
        case (.hang, .hang(let note)):
            #expect(note.hasPrefix("hang:"))
        case (.reset, .reset(let note, let reason)):
            #expect(note.hasPrefix("reset:") && reason.contains("handshake fault reset"))
        case (.alert, .fail):
            // The context's callback fails the handshake itself: the note comes with the failure.
            #expect(plan.handshakeFailureNote?.hasPrefix("alert:") == true)
        default:
            Issue.record("\(fault) decided \(plan.heldHello)")
        }
        if fault != .alert { #expect(plan.handshakeFailureNote == nil) }
        #expect(plan.ending == .closeNotify)
    }

    @Test("a configuration's faults are the plan's")
    func fromConfiguration() throws {
        var configuration = try TLSSettings.generated()
        #expect(TLSFaultPlan(configuration) == .none)
        configuration.handshakeFault = .reset
        configuration.sendsCloseNotify = false
        let plan = TLSFaultPlan(configuration)
        #expect(plan == TLSFaultPlan(handshake: .reset, sendsCloseNotify: false))
        #expect(plan.ending == .withoutCloseNotify(note: "the connection ends without close_notify"))
    }
}
