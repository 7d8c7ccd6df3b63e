import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The `cachelab` executable of this build, run as a child process: for what only another
/// process shows (a SIGKILL mid-write, a server's own memory). Blocking: call it from
/// `onOwnThread`.
///
/// Started with `posix_spawn` rather than Foundation's `Process`: `Process.run` lists
/// `/proc/self/fd` reading past the end of a buffer, which AddressSanitizer stops the tests for.
///
/// The child keeps only its stdin, stdout and stderr. Other tests open descriptors without
/// close-on-exec at any moment; a child that inherited one would hold it open as long as it runs.
/// Foundation's `Process` learns that its child ended when the end of a socket pair it gave the
/// child closes: had a long-lived child here inherited that end, a `Process` started on another
/// thread at the same moment would seem to run on until this child ended (a `cachelab serve` on a
/// taken port "waited 20 seconds to exit" in CI). Pipes of `Pipe()` likewise stayed open.
public final class ChildProcess {
    /// How the child ended.
    public enum End: Equatable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let signal): "killed by signal \(signal)"
            }
        }
    }

    public let pid: pid_t
    /// The read end of the child's stdout.
    private let output: FileHandle
    private let errorFile: URL
    /// Set once the child has been reaped.
    private var end: End?

    /// Starts `cachelab arguments...`, its stdout readable line by line, its stderr kept in a file.
    public init(cachelab arguments: [String]) throws {
        let executable = try Self.cachelab().path
        errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-child-\(UUID()).err")
        // Close-on-exec, so that no other child started meanwhile inherits the write end and
        // keeps this child's stdout open after it exits; the `dup2` onto fd 1 clears the flag.
        // (`pipe2`, which sets it atomically, is not imported without _GNU_SOURCE.)
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw ChildProcessError("pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
        posix_spawn_file_actions_addopen(
            &actions, STDERR_FILENO, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let closing = Self.closeFrom(&actions, 3)
        guard closing == 0 else {
            for end in ends { close(end) }
            throw ChildProcessError("posix_spawn_file_actions_addclosefrom_np: \(String(cString: strerror(closing)))")
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, nil, argv, environ)
        close(ends[1])
        guard status == 0 else {
            close(ends[0])
            throw ChildProcessError("posix_spawn \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        output = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which closes every
    /// descriptor from the one given up as the child starts, so none opened meanwhile slips
    /// through. Swift's Glibc module does not import it (it is a GNU extension), so it is looked
    /// up by name. Returns 0, or the error number.
    private static func closeFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) -> Int32 {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let library = dlopen(nil, RTLD_NOW) else { return ENOSYS }
        defer { dlclose(library) }
        guard let symbol = dlsym(library, "posix_spawn_file_actions_addclosefrom_np") else { return ENOSYS }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, lowest)
    }

    deinit {
        if end == nil {
            kill(pid, SIGKILL)
            _ = reap(blocking: true)
        }
        try? FileManager.default.removeItem(at: errorFile)
    }

    /// The first line the child writes to stdout (a server's URL), or nil if it closes stdout first.
    public func firstLine() -> String? {
        var line: [UInt8] = []
        while true {
            let byte = output.readData(ofLength: 1)
            guard let first = byte.first else { return nil }
            if first == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(first)
        }
    }

    /// Sends `signal` to the child (nothing once it has been reaped).
    public func send(_ signal: Int32) {
        if end == nil { kill(pid, signal) }
    }

    /// What the child wrote to stdout after `firstLine()`, once `wait()` has returned.
    public private(set) var standardOutput = ""

    public var isRunning: Bool { reap(blocking: false) == nil }

    /// Waits for the child to end, reading the rest of its stdout (so that it never blocks on a
    /// full pipe) into `standardOutput`.
    @discardableResult
    public func wait() -> End {
        standardOutput = String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
        // Only nil if waitpid fails, which for our own unreaped child it cannot.
        return reap(blocking: true) ?? .exited(-1)
    }

    /// How the child ended, reaping it if it has; nil while it runs (or if `waitpid` fails).
    private func reap(blocking: Bool) -> End? {
        if let end { return end }
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if reaped == -1 && errno == EINTR { continue }
            guard reaped == pid else { return nil }
            break
        }
        // The <sys/wait.h> macros, which Swift does not import: the low 7 bits are the signal
        // that ended the child (0 if it exited), the next 8 its exit status.
        let signal = status & 0x7f
        end = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        return end
    }

    /// What the child wrote to stderr.
    public var standardError: String {
        (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
    }

    /// The child's resident memory now and at its peak (`VmRSS`, `VmHWM`), in bytes.
    public func memory() -> (resident: Int, peak: Int)? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func kilobytes(_ field: String) -> Int? {
            status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
                .flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
        }
        guard let resident = kilobytes("VmRSS"), let peak = kilobytes("VmHWM") else { return nil }
        return (resident * 1_024, peak * 1_024)
    }

    /// `cachelab` beside the test bundle: both are products of the same `swift build`.
    public static func cachelab() throws -> URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for folder in [bundle, bundle.deletingLastPathComponent()] {
            let candidate = folder.appendingPathComponent("cachelab")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw ChildProcessError(
            "no cachelab executable beside the tests (\(bundle.path)): build it first with `swift build --build-tests`")
    }
}

public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The repository's root folder (for `traces/`): this file is `Tests/TestSupport/ChildProcess.swift`.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
