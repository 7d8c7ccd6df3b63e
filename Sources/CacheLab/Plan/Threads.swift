#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Threads of its own for work that blocks: a trace's reader and the cores replaying it.
///
/// A plan's reader and workers wait for one another, so each needs a thread of its own: a pool
/// with a thread per core (Dispatch's, Swift concurrency's) could run the waiting ones and never
/// the ones they wait for. These are POSIX threads, joined before `run` returns.
public enum Threads {
    /// Runs `body(0)`, …, `body(count - 1)`, each on a thread of its own, and returns when all
    /// have: `body(0)` on the calling thread, the others on new threads.
    static func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 1 else {
            if count == 1 { body(0) }
            return
        }
        var threads: [pthread_t] = []
        for index in 1..<count { threads.append(start { body(index) }) }
        body(0)
        for thread in threads { pthread_join(thread, nil) }
    }

    /// Runs `body` on a thread of its own and resumes the caller with its result: blocking work
    /// called from async code, without holding one of the concurrency pool's few threads.
    public static func detached<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            pthread_detach(start { continuation.resume(returning: body()) })
        }
    }

    /// A new thread running `body`.
    private static func start(_ body: @escaping @Sendable () -> Void) -> pthread_t {
        let context = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, context)
        precondition(status == 0, "pthread_create failed with error \(status)")
        return thread
    }

    /// A closure to hand to a new thread.
    private final class Work: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
