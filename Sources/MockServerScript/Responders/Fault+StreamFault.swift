import MockServerCore

extension Fault {
    /// The same fault as the connection carries it out, or `nil` for the FTP data-channel faults.
    package var streamFault: StreamFault? {
        switch self {
        case .reset: .reset
        case .halfClose: .halfClose
        case .hang: .hang
        case .truncate(let bytes): .truncate(bytes: bytes)
        case .dribble(let rate): .dribble(bytesPerSecond: rate)
        case .refuseData, .delayData: nil
        }
    }
}
