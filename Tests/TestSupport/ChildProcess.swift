import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The `cachelab` executable of this build, run as a child process: for what only another
/// process shows (a SIGKILL mid-write, a server's own memory). Blocking: call it from
/// `onOwnThread`.
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

    private let process = Process()
    private let output = Pipe()
    private let errorFile: URL

    /// Starts `cachelab arguments...`, its stdout readable line by line, its stderr kept in a file.
    public init(cachelab arguments: [String]) throws {
        process.executableURL = try Self.cachelab()
        process.arguments = arguments
        process.standardOutput = output
        errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-child-\(UUID()).err")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: errorFile)
    }

    public var pid: Int32 { process.processIdentifier }

    /// The first line the child writes to stdout (a server's URL), or nil if it closes stdout first.
    public func firstLine() -> String? {
        var line: [UInt8] = []
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard let first = byte.first else { return nil }
            if first == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(first)
        }
    }

    /// Sends `signal` to the child.
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// What the child wrote to stdout after `firstLine()`, once `wait()` has returned.
    public private(set) var standardOutput = ""

    public var isRunning: Bool { process.isRunning }

    /// Waits for the child to end, reading the rest of its stdout (so that it never blocks on a
    /// full pipe) into `standardOutput`.
    @discardableResult
    public func wait() -> End {
        standardOutput = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal
            ? .signalled(process.terminationStatus) : .exited(process.terminationStatus)
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
