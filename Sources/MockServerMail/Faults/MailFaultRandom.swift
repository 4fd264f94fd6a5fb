/// The seeded generator a fault plan draws its probabilities from (SplitMix64): the same seed
/// gives the same draws in the same order, so a test that fails one send in three fails the same
/// ones on every run.
package struct MailFaultRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that starts from `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        return mixed ^ (mixed >> 31)
    }
}
