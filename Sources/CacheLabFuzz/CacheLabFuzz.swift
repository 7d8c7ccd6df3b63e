import CacheLabFuzzing
import Foundation

// Two builds of one file:
// - `swift build` makes a corpus runner: `cachelab-fuzz TARGET PATH...` checks each file (or
//   each file in a folder) and exits 1 if any breaks a property.
// - `scripts/fuzz` builds it with `-sanitize=fuzzer -D CACHELAB_LIBFUZZER`: then `main` hands
//   the command line to libFuzzer's driver, which calls `LLVMFuzzerTestOneInput` for each input,
//   and `CACHELAB_FUZZ_TARGET` names the target. (libFuzzer's own `main` cannot be used: SwiftPM
//   links every executable's `main` to the module's entry point.)

@main
enum CacheLabFuzz {
    static func main() {
        #if CACHELAB_LIBFUZZER
            runLibFuzzer()
        #else
            runCorpus()
        #endif
    }

    static let usage = """
        usage: cachelab-fuzz TARGET PATH...

        Checks each file (each file in a folder PATH) as the fuzzer checks an input, and
        prints the properties it broke. Exits 1 if any did, 2 on a usage error.
        To fuzz, run scripts/fuzz TARGET [SECONDS] instead.

        TARGET:
        \(FuzzTarget.allCases.map { "  \($0.rawValue): \($0.summary)" }.joined(separator: "\n"))
        """

    static func runCorpus() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage)
            return
        }
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            exit(2)
        }
        var files: [String] = []
        for path in arguments.dropFirst() {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                FileHandle.standardError.write(Data("cachelab-fuzz: no such file or folder: \(path)\n".utf8))
                exit(2)
            }
            if isFolder.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files += names.sorted().map { path + "/" + $0 }
            } else {
                files.append(path)
            }
        }
        var failed = 0
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            let problems = target.check(Array(data))
            if !problems.isEmpty {
                failed += 1
                print("\(file):\n" + problems.map { "  \($0)" }.joined(separator: "\n"))
            }
        }
        print("\(files.count) inputs checked, \(failed) broke a property")
        exit(failed == 0 ? 0 : 1)
    }
}

#if CACHELAB_LIBFUZZER
    private let target: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["CACHELAB_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            fatalError(
                "set CACHELAB_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return target
    }()

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        let problems = target.check(bytes)
        // A broken property is a crash to libFuzzer: it stops and saves the input.
        if !problems.isEmpty {
            FileHandle.standardError.write(
                Data(("broken properties:\n" + problems.joined(separator: "\n") + "\n").utf8))
            abort()
        }
        return 0
    }

    extension CacheLabFuzz {
        /// `LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput)`, found at run time: the
        /// executable exports it (`--export-dynamic-symbol`), and Swift cannot declare a C function
        /// without a module for it.
        static func runLibFuzzer() -> Never {
            typealias TestOne = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
            typealias RunDriver =
                @convention(c) (
                    UnsafeMutablePointer<Int32>,
                    UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                    TestOne
                ) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "LLVMFuzzerRunDriver") else {
                fatalError("libFuzzer's LLVMFuzzerRunDriver is not linked in: build with scripts/fuzz")
            }
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            _ = target
            exit(unsafeBitCast(symbol, to: RunDriver.self)(&argc, &argv, fuzzOne))
        }
    }
#endif
