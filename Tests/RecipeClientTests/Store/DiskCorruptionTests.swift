import CacheEngine
import ClientModel
import Foundation
import Testing

@testable import RecipeClient

/// A disk that never lies: random bytes flipped anywhere in the store's file (its header, the URL
/// index, the rows, the overflow pages that hold a photo's bytes), then a relaunch. Whatever was
/// hit, the disk tier opens, never serves one URL's photo for another, and every URL loads again
/// after at most one download.
@Suite("The disk never lies: random bytes flipped across the whole file")
struct DiskCorruptionTests {
    /// What one flipped file did on relaunch.
    struct Outcome {
        var wrongImages = 0
        var failedOpens = 0
        var urlsFailingAfterADownload = 0
        var readsThrowing = 0
        var served = 0
        var missed = 0
        /// What went wrong, a line each.
        var notes: [String] = []
    }

    /// Photos of 1 to 40 KB: most run over overflow pages.
    static func photos(_ seed: UInt64) -> [(url: String, bytes: [UInt8])] {
        var random = SplitMix64(seed: seed)
        return (0..<16).map { number in
            let size = 1_000 + Int(random.next() % 39_000)
            return (StoreFixtures.url(number), StoreFixtures.image(seed &* 31 &+ UInt64(number), count: size))
        }
    }

    static func flipAndRelaunch(seed: UInt64, flips: Int) throws -> Outcome {
        try StoreFixtures.withStorePath { path in
            let photos = Self.photos(seed)
            let configuration = CacheConfiguration(capacity: 10 << 20)
            do {
                let tier = try DiskTier<LRUPolicy>(path: path, configuration: configuration, at: 0)
                for (index, photo) in photos.enumerated() {
                    try tier.insert(photo.bytes, forKey: photo.url, at: Int64(index))
                }
            }  // closed: the WAL is checkpointed into the file

            // Flip bytes: in the file's first page (its header and schema), the URL index's root
            // page, the table's root page (the rows and their pointers to overflow pages), or
            // anywhere (mostly a photo's bytes), a quarter of the flips each.
            let pages = try Self.pages(path)
            var file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            var random = SplitMix64(seed: seed ^ 0xF11B)
            for _ in 0..<flips {
                let region: Range<Int>
                switch random.next() % 4 {
                case 0: region = 0..<pages.size
                case 1: region = pages.index
                case 2: region = pages.table
                default: region = 0..<file.count
                }
                let offset = region.lowerBound + Int(random.next() % UInt64(region.count))
                file[offset] ^= UInt8(1 + random.next() % 255)
            }
            try Data(file).write(to: URL(fileURLWithPath: path))

            var outcome = Outcome()
            let tier: DiskTier<LRUPolicy>
            do {
                tier = try DiskTier<LRUPolicy>(path: path, configuration: configuration, at: 100)
            } catch {
                outcome.notes.append("the tier did not open: \(error)")
                outcome.failedOpens += 1
                return outcome
            }
            for (index, photo) in photos.enumerated() {
                let now = Int64(200 + index * 2)
                do {
                    if let bytes = try tier.value(forKey: photo.url, at: now) {
                        if bytes == photo.bytes { outcome.served += 1 } else { outcome.wrongImages += 1 }
                        continue
                    }
                } catch {
                    outcome.notes.append("\(photo.url)'s lookup threw: \(error)")
                    outcome.readsThrowing += 1
                }
                // A miss: the photo is downloaded again and stored; the next lookup must serve it.
                outcome.missed += 1
                do {
                    try tier.insert(photo.bytes, forKey: photo.url, at: now)
                    if try tier.value(forKey: photo.url, at: now + 1) != photo.bytes {
                        outcome.notes.append("\(photo.url) missed after its download")
                        outcome.urlsFailingAfterADownload += 1
                    }
                } catch {
                    outcome.notes.append("\(photo.url) failed after its download: \(error)")
                    outcome.urlsFailingAfterADownload += 1
                }
            }
            return outcome
        }
    }

    /// The byte ranges of the URL index's and the images table's root pages, and the page size.
    static func pages(_ path: String) throws -> (size: Int, index: Range<Int>, table: Range<Int>) {
        let database = try SQLiteDatabase(path: path)
        let size = try database.prepare("PRAGMA page_size").query { Int($0.int64(at: 0)) } ?? 4_096
        func root(_ name: String) throws -> Range<Int> {
            let page =
                try database.prepare("SELECT rootpage FROM sqlite_master WHERE name = ?1")
                .query(.text(name)) { Int($0.int64(at: 0)) } ?? 1
            return (page - 1) * size..<page * size
        }
        return (size, try root("sqlite_autoindex_images_1"), try root("images"))
    }

    @Test func noFlipServesAnotherPhotoAndEveryURLLoadsAgain() throws {
        // CACHELAB_CORRUPTION_SEEDS raises the count (a soak); CI runs the default 240.
        // CACHELAB_CORRUPTION_FIRST_SEED starts elsewhere (to look at one seed again).
        let environment = ProcessInfo.processInfo.environment
        let seeds = environment["CACHELAB_CORRUPTION_SEEDS"].flatMap { Int($0) } ?? 240
        let first = environment["CACHELAB_CORRUPTION_FIRST_SEED"].flatMap { UInt64($0) } ?? 0
        var total = Outcome()
        for seed in first..<first + UInt64(seeds) {
            let outcome = try Self.flipAndRelaunch(seed: seed, flips: 1 + Int(seed % 3))
            let notes = outcome.notes.joined(separator: "; ")
            #expect(outcome.wrongImages == 0, "seed \(seed): a URL served another photo's bytes")
            #expect(outcome.failedOpens == 0, "seed \(seed): \(notes)")
            #expect(outcome.readsThrowing == 0, "seed \(seed): \(notes)")
            #expect(outcome.urlsFailingAfterADownload == 0, "seed \(seed): \(notes)")
            total.wrongImages += outcome.wrongImages
            total.failedOpens += outcome.failedOpens
            total.readsThrowing += outcome.readsThrowing
            total.urlsFailingAfterADownload += outcome.urlsFailingAfterADownload
            total.served += outcome.served
            total.missed += outcome.missed
        }
        // And the flips hit something: some lookups missed, most were served.
        #expect(total.missed > 0 && total.served > total.missed)
        print(
            "disk corruption: \(seeds) files flipped; \(total.served) photos served right, \(total.missed) missed and downloaded again; \(total.wrongImages) wrong, \(total.failedOpens) failed opens, \(total.readsThrowing) lookups throwing, \(total.urlsFailingAfterADownload) failing after a download"
        )
    }
}
