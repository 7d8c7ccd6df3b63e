import Foundation

/// How many times longer a wall-clock bound may take in this run: 5 under a sanitizer (ASan and
/// TSan slow code down 2-15x), else 1. `scripts/sanitize` sets `CACHELAB_SANITIZER`.
public let sanitizerSlowdown: Double = ProcessInfo.processInfo.environment["CACHELAB_SANITIZER"] == nil ? 1 : 5
