import CacheLabLocking
import Foundation

@testable import FixtureServer

enum Fixtures {
    /// `../shared/fixtures` next to the repository, or nil when it is absent.
    static let sharedDirectory: String? = {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let directory = repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures").path
        return FileManager.default.fileExists(atPath: directory + "/recipes.json") ? directory : nil
    }()

    static var realRecipesPath: String? { sharedDirectory.map { $0 + "/recipes.json" } }

    static func makeConfiguration(
        recipes: Int = 63, seed: UInt64 = 1, faults: FaultRates = .none, maxAge: Int = 3_600
    ) -> FixtureConfiguration {
        var configuration = FixtureConfiguration()
        configuration.catalog = .generated(recipes: recipes)
        configuration.seed = seed
        configuration.faults = faults
        configuration.maxAge = maxAge
        return configuration
    }
}

/// A clock whose sleeps return at once and move its time forward, recording each one.
final class RecordingClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let state = Locked<(now: Duration, sleeps: [Duration])>((.zero, []))

    var now: Instant { Instant(offset: state.withLock { $0.now }) }
    var minimumResolution: Duration { .zero }
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        state.withLock { state in
            state.sleeps.append(deadline.offset - state.now)
            state.now = max(state.now, deadline.offset)
        }
    }
}
