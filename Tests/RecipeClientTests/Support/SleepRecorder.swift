import CacheLabLocking

/// Stands in for `Task.sleep`: records each requested delay and returns at once.
final class SleepRecorder: Sendable {
    private let recorded = Locked<[Duration]>([])

    var delays: [Duration] {
        recorded.withLock { $0 }
    }

    var sleep: @Sendable (Duration) async throws -> Void {
        { delay in self.recorded.withLock { $0.append(delay) } }
    }
}
