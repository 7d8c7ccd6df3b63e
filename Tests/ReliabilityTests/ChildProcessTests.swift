import CacheLabTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a child started by the tests' `ChildProcess` inherits of the test process.
@Suite("The tests' child processes")
struct ChildProcessTests {
    @Test func aChildKeepsNoDescriptorOfTheTestsOpen() throws {
        // Given a pipe opened without close-on-exec, as Foundation's `Pipe()` and `Process` open theirs
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }

        // When a long-lived child starts while it is open, and then this process closes its write end
        let server = try ChildProcess(cachelab: ["serve", "--port", "0"])
        let url = server.firstLine()
        close(ends[1])

        // Then the pipe has ended: the running child holds no copy of the write end
        #expect(url?.hasPrefix("http://127.0.0.1:") == true, "stderr: \(server.standardError)")
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        var byte: UInt8 = 0
        let count = read(ends[0], &byte, 1)
        let error = errno
        #expect(count == 0, "read gave \(count) (\(String(cString: strerror(error)))): the child has the write end")
        server.send(SIGTERM)
        #expect(server.wait() == .exited(0))
    }
}
