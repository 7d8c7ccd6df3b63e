#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value shared between threads, reached only under a `pthread_mutex_t`.
///
/// It stands in for `Synchronization.Mutex`, with the same `withLock`, for one reason: on Linux
/// `Mutex` waits on a futex, which ThreadSanitizer cannot see, so every value guarded by one is
/// reported as a data race (a counter incremented by four threads under one `Mutex` ends right
/// and still gets three reports). ThreadSanitizer intercepts `pthread_mutex_lock`, so a run of the
/// tests under `--sanitize=thread` reports only real races. Uncontended, both cost about the same:
/// one atomic operation to lock and one to unlock.
///
/// It lives in a target of its own so that every other target can share it, the Foundation-only
/// recorder included. This is the one `@unchecked Sendable` type in the sources. Why it is sound: `value` is only
/// read or written inside `withLock`, between `pthread_mutex_lock` and `pthread_mutex_unlock` on a
/// mutex that lives, at a fixed address, as long as the instance; the closure cannot keep the
/// `inout` access past its return.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed with error \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, no other thread inside a `withLock` of this instance meanwhile.
    /// Not reentrant: calling `withLock` again from `body` deadlocks.
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body(&value)
    }

    private func lock() {
        let status = pthread_mutex_lock(mutex)
        precondition(status == 0, "pthread_mutex_lock failed with error \(status)")
    }

    private func unlock() {
        let status = pthread_mutex_unlock(mutex)
        precondition(status == 0, "pthread_mutex_unlock failed with error \(status)")
    }
}
