import Foundation
import MockServerMail
import Testing

/// Waits on the mailbox: satisfied by a message already there or by one delivered after the wait
/// registered (no sleep: the store says when a wait registers), and a timeout listing what came.
@Suite("Mail waits")
struct MailWaitTests {
    static func deliver(_ subject: String, to recipient: String, body: String = "Hello.", in store: MailStore) {
        store.deliver(Data("From: App <app@shop.example>\r\nTo: \(recipient)\r\nSubject: \(subject)\r\n\r\n\(body)\r\n".utf8),
                      envelope: MailEnvelope(sender: "bounces@shop.example", recipients: [recipient],
                                             origin: .smtp(heloName: "app", client: nil, security: .plain, user: nil)))
    }

    @Test("a wait finds a message already delivered, by recipient, sender, subject or body")
    func alreadyThere() async throws {
        let store = MailStore()
        Self.deliver("Welcome", to: "lee@example.org", in: store)
        Self.deliver("Reset your password", to: "dana@example.net", body: "token=8f14", in: store)
        #expect(try await store.wait(for: .recipient("dana@EXAMPLE.net")).message.subject == "Reset your password")
        #expect(try await store.wait(for: .sender("app@shop.example")).message.subject == "Welcome")
        #expect(try await store.wait(for: .sender("bounces@SHOP.example")).message.subject == "Welcome")
        #expect(try await store.wait(for: .subject(contains: "password")).envelope.recipients == ["dana@example.net"])
        #expect(try await store.wait(for: .body(contains: "token=")).message.subject == "Reset your password")
        let both = MailMatch.all([.recipient("lee@example.org"), .subject(contains: "Welcome")])
        #expect(try await store.wait(for: both).message.subject == "Welcome")
        #expect(store.waiterCount == 0)
    }

    @Test("a wait that registered first is resumed by the delivery, from another task, that matches it")
    func deliveredLater() async throws {
        let (registered, signal) = AsyncStream.makeStream(of: String.self)
        let store = MailStore(waitRegistered: { signal.yield($0.description) })
        let delivery = Task {
            var waits = registered.makeAsyncIterator()
            let first = await waits.next()
            // Registered: a message for someone else does not end the wait; the next one does.
            Self.deliver("Other", to: "lee@example.org", in: store)
            Self.deliver("Your code", to: "dana@example.net", in: store)
            return first
        }
        let found = try await store.wait(for: .all([.recipient("dana@example.net"), .subject(contains: "code")]), timeout: .seconds(60))
        #expect(found.message.subject == "Your code")
        #expect(await delivery.value == "recipient dana@example.net and subject containing \"code\"")
        #expect(store.waiterCount == 0)
        signal.finish()
    }

    @Test("a wait that times out says what it waited for and lists what did arrive")
    func timeout() async throws {
        let store = MailStore()
        Self.deliver("Welcome", to: "lee@example.org", in: store)
        do {
            try await store.wait(for: .recipient("dana@example.net"), timeout: .milliseconds(50))
            Issue.record("the wait did not time out")
        } catch let timeout as MailWaitTimeout {
            #expect(timeout.expectation == "recipient dana@example.net")
            #expect(timeout.arrived.map(\.message.subject) == ["Welcome"])
            #expect(timeout.description.contains("bounces@shop.example → lee@example.org \"Welcome\""))
        }
        #expect(store.waiterCount == 0)
    }

    @Test("a cancelled wait ends with CancellationError and leaves no waiter")
    func cancelled() async throws {
        let (registered, signal) = AsyncStream.makeStream(of: Void.self)
        let store = MailStore(waitRegistered: { _ in signal.yield() })
        let wait = Task { try await store.wait(for: .recipient("nobody@example.net"), timeout: .seconds(60)) }
        var waits = registered.makeAsyncIterator()
        await waits.next()
        wait.cancel()
        await #expect(throws: CancellationError.self) { try await wait.value }
        #expect(store.waiterCount == 0)
        signal.finish()
    }
}
