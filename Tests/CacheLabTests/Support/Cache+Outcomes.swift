import CacheEngine

@testable import CacheLab

extension Cache where Key == UInt64, Value == Void {
    /// Serves `requests`, written as libCacheSim traces are in the specification ("7" for key 7
    /// of size 1, "7:512" for key 7 of 512 bytes, separated by spaces), checking every invariant
    /// after each, and returns the outcomes as libCacheSim's hit/miss string: "H" per hit, "m"
    /// per miss.
    func outcomes(_ requests: String) -> String {
        requests.split(separator: " ").map { request in
            let parts = request.split(separator: ":")
            precondition((1...2).contains(parts.count), "outcomes: bad request \(request)")
            return self.request(UInt64(parts[0])!, size: parts.count == 2 ? Int(parts[1])! : 1) ? "H" : "m"
        }.joined()
    }
}
