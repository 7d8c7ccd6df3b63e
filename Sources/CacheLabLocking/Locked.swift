#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value shared between threads, reached only under a `pthread_mutex_t`, with a condition
/// variable to wait on it.
///
/// It stands in for `Synchronization.Mutex`, with the same `withLock`, for one reason: on Linux
/// `Mutex` waits on a futex, which ThreadSanitizer cannot see, so every value guarded by one is
/// reported as a data race (a counter incremented by four threads under one `Mutex` ends right
/// and still gets three reports). ThreadSanitizer intercepts `pthread_mutex_lock`, so a run of the
/// tests under `--sanitize=thread` reports only real races. Uncontended, both cost about the same:
/// one atomic operation to lock and one to unlock.
///
/// Its methods are `@inlinable` and the value lives behind a pointer it owns, as `Mutex`'s does:
/// a caller in another module (the fixture server, for every request it answers; the recorder,
/// for every lookup) gets `withLock` specialized for its value and its closure, with no
/// unspecialized generic call and no runtime exclusivity check of a class property on the way.
///
/// It lives in a target of its own so that every other target can share it, the Foundation-only
/// recorder included. This is the one `@unchecked Sendable` type in the sources, and only when `Value` is
/// `Sendable`. Why it is sound: `value` is only
/// read or written inside `withLock`, between `pthread_mutex_lock` and `pthread_mutex_unlock` on a
/// mutex that lives, at a fixed address, as long as the instance; the closure cannot keep the
/// `inout` access past its return. `wait(until:_:)` waits on a `pthread_cond_t` tied to the same
/// mutex, which `pthread_cond_wait` releases and takes back, so the value is still only touched
/// with the mutex held.
public final class Locked<Value> {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>
    @usableFromInline let value: UnsafeMutablePointer<Value>

    public init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed with error \(status)")
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        let made = pthread_cond_init(condition, nil)
        precondition(made == 0, "pthread_cond_init failed with error \(made)")
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Waits until `ready` holds of the value, then runs `body` with it, the lock held throughout
    /// (released only while waiting). Wake the waiters with `withLockNotifying`.
    @inlinable
    public func wait<Result>(until ready: (Value) -> Bool, _ body: (inout Value) -> Result) -> Result {
        lock()
        defer { unlock() }
        while !ready(value.pointee) {
            let status = pthread_cond_wait(condition, mutex)
            precondition(status == 0, "pthread_cond_wait failed with error \(status)")
        }
        return body(&value.pointee)
    }

    /// `withLock`, then wakes every thread waiting in `wait(until:_:)` to look at the value again.
    @inlinable
    public func withLockNotifying<Result>(_ body: (inout Value) -> Result) -> Result {
        lock()
        defer {
            pthread_cond_broadcast(condition)
            unlock()
        }
        return body(&value.pointee)
    }

    /// Runs `body` with the value, no other thread inside a `withLock` of this instance meanwhile.
    /// Not reentrant: calling `withLock` again from `body` deadlocks.
    @inlinable
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body(&value.pointee)
    }

    @inlinable
    func lock() {
        let status = pthread_mutex_lock(mutex)
        precondition(status == 0, "pthread_mutex_lock failed with error \(status)")
    }

    @inlinable
    func unlock() {
        let status = pthread_mutex_unlock(mutex)
        precondition(status == 0, "pthread_mutex_unlock failed with error \(status)")
    }
}

/// Sendable when what it guards is: a value handed out of `withLock` (its result) crosses to the
/// thread that took it, so only a value that may cross threads may be shared this way.
extension Locked: @unchecked Sendable where Value: Sendable {}
