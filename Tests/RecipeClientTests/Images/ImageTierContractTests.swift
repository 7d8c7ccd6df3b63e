import CacheEngine
import CacheLab
import ClientModel
import Testing

@testable import RecipeClient

/// The `ImageTier` rules (totals, pins, whole images, relaunch), checked for every tier the
/// pipeline uses under every policy a client can run: each tier × policy passes the same suite.
@Suite("The ImageTier contract, for every tier and online policy")
struct ImageTierContractTests {
    typealias F = StoreFixtures

    /// A tier the pipeline uses, made fresh (or reopened) over a temporary folder.
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case memory
        case disk

        var testDescription: String { rawValue }

        /// A tier of `capacity` bytes under `policy`, its pins limited to `pinBudget` bytes. A
        /// memory tier costs images by their encoded bytes here, as the disk tier does.
        func make(
            _ policy: PolicyKind, capacity: Int, pinBudget: Int = .max, folder: String, at now: Int64 = 0
        )
            throws -> any ImageTier
        {
            let configuration = policy.configuration(capacity: capacity)
            switch self {
            case .memory:
                return try policy.makeMemoryTier(
                    configuration: configuration, expectedCount: 64, pinBudget: pinBudget, cost: .encoded)
            case .disk:
                return try policy.openDiskTier(
                    store: DiskStore(path: folder + "/images.sqlite"), configuration: configuration, at: now,
                    pinBudget: pinBudget)
            }
        }

        /// Whether what the tier holds outlives the app (a relaunch reopens it).
        var survivesRelaunch: Bool { self == .disk }
    }

    /// What each stored image should read back as, to check totals against.
    private static func image(_ number: Int) -> [UInt8] { F.image(UInt64(number), count: 100 + number % 7 * 30) }

    @Test(arguments: Kind.allCases, PolicyKind.online)
    func totalsAreWhatIsStoredAndHitsReturnTheWholeImage(kind: Kind, policy: PolicyKind) throws {
        try F.withTemporaryDirectory { folder in
            // Given a tier under a workload of inserts, lookups and removals over 60 photos
            let tier = try kind.make(policy, capacity: 20_000, folder: folder)
            var random = SplitMix64(seed: 11)
            for step in 1...600 {
                let number = Int(random.next() % 60)
                let url = F.url(number)
                let now = Int64(step)
                switch random.next() % 10 {
                case 0: try tier.remove(url)
                case 1, 2, 3: try tier.insert(Self.image(number), forKey: url, at: now)
                default:
                    // Then a hit is always the whole image that was stored
                    if let bytes = try tier.value(forKey: url, at: now) { #expect(bytes == Self.image(number)) }
                }
                // The disk tier's check reads every row: every 50 steps, and at the end.
                if step % 50 == 0 { try tier.checkInvariants() }
            }
            // And the totals are the sums over what the tier says it holds
            let held = (0..<60).filter { tier.contains(F.url($0), at: 600) }
            #expect(tier.count == held.count)
            #expect(tier.totalBytes == held.reduce(0) { $0 + Self.image($1).count })
            #expect(tier.totalBytes <= 20_000)
            #expect(tier.peakCost >= tier.totalBytes)
            #expect(!held.isEmpty)
        }
    }

    @Test(arguments: Kind.allCases, PolicyKind.online)
    func anImageBiggerThanTheCapacityIsRefusedAndKeepsNothing(kind: Kind, policy: PolicyKind) throws {
        try F.withTemporaryDirectory { folder in
            let tier = try kind.make(policy, capacity: 10_000, folder: folder)
            try tier.insert(Self.image(1), forKey: F.url(1), at: 1)
            let before = tier.evictions
            // An image of 10,001 bytes, stored under a URL that held a small one
            #expect(try !tier.insert(F.image(9, count: 10_001), forKey: F.url(1), at: 2))
            #expect(try tier.value(forKey: F.url(1), at: 3) == nil)
            #expect(tier.evictions == before)
            #expect(tier.count == 0 && tier.totalBytes == 0)
            try tier.checkInvariants()
        }
    }

    @Test(arguments: Kind.allCases, PolicyKind.online)
    func aPinnedImageOutlivesTrimsUntilUnpinned(kind: Kind, policy: PolicyKind) throws {
        try F.withTemporaryDirectory { folder in
            let tier = try kind.make(policy, capacity: 20_000, pinBudget: 1_000, folder: folder)
            // Pinning needs a stored image, and refuses one over the budget
            #expect(try !tier.pin(F.url(1), at: 1))
            try tier.insert(Self.image(1), forKey: F.url(1), at: 1)
            guard tier.contains(F.url(1), at: 1) else { return }  // a policy that declines newcomers
            #expect(try tier.pin(F.url(1), at: 2))
            #expect(tier.pinnedBytes == Self.image(1).count)
            try tier.insert(F.image(2, count: 1_500), forKey: F.url(2), at: 3)
            if tier.contains(F.url(2), at: 3) {
                #expect(try !tier.pin(F.url(2), at: 3))
                #expect(tier.pinRefusals == 1)
            }
            // When the tier is trimmed to nothing, the pinned image stays and counts in the totals
            for number in 3...80 { try tier.insert(Self.image(number), forKey: F.url(number), at: Int64(number)) }
            try tier.trim(toCost: 0)
            #expect(tier.contains(F.url(1), at: 100))
            #expect(tier.count == 1 && tier.totalBytes == Self.image(1).count)
            #expect(try tier.value(forKey: F.url(1), at: 100) == Self.image(1))
            // Once unpinned it is an ordinary entry again
            try tier.unpin(F.url(1), at: 101)
            #expect(tier.pinnedBytes == 0)
            try tier.trim(toCost: 0)
            #expect(!tier.contains(F.url(1), at: 102))
            #expect(tier.count == 0 && tier.totalBytes == 0)
            try tier.checkInvariants()
        }
    }

    @Test(arguments: Kind.allCases, PolicyKind.online)
    func aRelaunchKeepsWhatTheTierPersistsAndNothingElse(kind: Kind, policy: PolicyKind) throws {
        try F.withTemporaryDirectory { folder in
            var held: [Int] = []
            var bytes = 0
            do {
                let tier = try kind.make(policy, capacity: 20_000, folder: folder)
                for number in 1...40 { try tier.insert(Self.image(number), forKey: F.url(number), at: Int64(number)) }
                held = (1...40).filter { tier.contains(F.url($0), at: 50) }
                bytes = tier.totalBytes
            }
            // The app relaunches: the tier is opened anew
            let tier = try kind.make(policy, capacity: 20_000, folder: folder, at: 60)
            try tier.checkInvariants()
            if kind.survivesRelaunch {
                #expect((1...40).filter { tier.contains(F.url($0), at: 60) } == held)
                #expect(tier.totalBytes == bytes)
                for number in held { #expect(try tier.value(forKey: F.url(number), at: 61) == Self.image(number)) }
            } else {
                #expect(tier.count == 0 && tier.totalBytes == 0)
            }
        }
    }

    @Test(arguments: Kind.allCases, PolicyKind.online)
    func aMissIsNilAndRemovingWhatIsAbsentIsNoError(kind: Kind, policy: PolicyKind) throws {
        try F.withTemporaryDirectory { folder in
            let tier = try kind.make(policy, capacity: 20_000, folder: folder)
            #expect(try tier.value(forKey: F.url(1), at: 0) == nil)
            try tier.remove(F.url(1))
            try tier.unpin(F.url(1), at: 0)
            #expect(tier.count == 0 && tier.evictions == 0 && tier.expirations == 0)
            try tier.checkInvariants()
        }
    }
}
