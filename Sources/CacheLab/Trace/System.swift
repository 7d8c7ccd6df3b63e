#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the machine offers.
enum System {
    /// Processors currently available to this process.
    static var activeProcessors: Int {
        Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }
}
