import Dispatch
import Foundation
import MockServer
import MockServerAdmin
import MockServerCore

/// Writes straight to a descriptor, unbuffered, so a reading script sees each line at once.
func write(_ text: String, to handle: FileHandle) {
    handle.write(Data(text.utf8))
}

/// `mockserver record …`: a recording proxy, with the same signals and first line as serving.
func record(_ arguments: [String]) throws {
    let options = try RecordOptions(arguments: arguments)
    if options.help {
        write(RecordOptions.usage + "\n", to: .standardOutput)
        exit(0)
    }
    DescriptorLimit.raiseToHardLimit()
    ProcessMemory.returnLargeBlocksWhenFreed()
    let running = RunningServer()
    let sources = running.routeStopSignals()
    let recording = try RecordCommand(options: options).start()
    running.queue.sync {
        running.afterStop = { write(recording.finish(), to: .standardError) }
    }
    let host = recording.address.map { $0.isIPv6 ? "[\($0.host)]" : $0.host } ?? options.host
    write("mockserver listening on \(host):\(recording.port)\n", to: .standardOutput)
    write("mockserver recording \(recording.recording)\n", to: .standardOutput)
    RunningServer.park(keeping: sources)
}

/// `mockserver mail …`: SMTP, POP3 and IMAP over one mailbox, with the first lines the contract gives.
func mail(_ arguments: [String]) throws {
    let options = try MailOptions(arguments: arguments)
    if options.help {
        write(MailOptions.usage + "\n", to: .standardOutput)
        exit(0)
    }
    DescriptorLimit.raiseToHardLimit()
    ProcessMemory.returnLargeBlocksWhenFreed()
    let running = RunningServer()
    let sources = running.routeStopSignals()
    let mail = try MailCommand(options: options).server()
    do {
        try mail.start()
    } catch {
        throw CommandLineError.cannotListen(error)
    }
    running.queue.sync { running.afterStop = { mail.stop() } }
    for (name, server) in [("smtp", mail.smtp), ("pop3", mail.pop3), ("imap", mail.imap)] {
        let host = server.address.map { $0.isIPv6 ? "[\($0.host)]" : $0.host } ?? options.host
        write("mockserver \(name) on \(host):\(server.port)\n", to: .standardOutput)
    }
    if options.admin {
        // The SMTP server's protocol carries the mailbox's routes (Mailpit's API).
        try running.serveAdmin(for: mail.smtp, port: options.adminPort)
    }
    RunningServer.park(keeping: sources)
}

do {
    if CommandLine.arguments.dropFirst().first == "mail" {
        try mail(Array(CommandLine.arguments.dropFirst(2)))
    }
    if CommandLine.arguments.dropFirst().first == "record" {
        try record(Array(CommandLine.arguments.dropFirst(2)))
    }
    let options = try CommandLineOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    let command = MockServerCommand(options: options)
    if options.help {
        write(CommandLineOptions.usage + "\n", to: .standardOutput)
        exit(0)
    }
    if options.check {
        write(try command.check(), to: .standardOutput)
        exit(0)
    }
    // As many connections as the system allows: the soft descriptor limit up to the hard one.
    DescriptorLimit.raiseToHardLimit()
    // Large blocks (answers made for a burst of clients) go back to the system once freed.
    ProcessMemory.returnLargeBlocksWhenFreed()
    // Signal sources first: the server's thread must start with the signals already routed here.
    let running = RunningServer()
    let sources = running.routeStopSignals()
    let (server, stubs, endpoints) = try command.start()
    running.queue.sync { running.server = server }
    // Announce the ports only once the signal handlers are live: a script that reads this line and
    // signals at once must not find the signal ignored or fatal.
    let host = server.address.map { $0.isIPv6 ? "[\($0.host)]" : $0.host } ?? options.host
    // An HTTP script binds no data port: the parenthesis is left out then.
    let dataPort = server.dataPort == 0 ? "" : " (data port \(server.dataPort))"
    write("mockserver listening on \(host):\(server.port)\(dataPort)\n", to: .standardOutput)
    if options.admin {
        try running.serveAdmin(for: server, stubs: stubs, initialEndpoints: endpoints, initialSet: stubs == nil ? options.set : nil, port: options.adminPort)
    }
    RunningServer.park(keeping: sources)
} catch {
    write("\(error)\n", to: .standardError)
    exit((error as? CommandLineError)?.exitStatus ?? 70)
}
