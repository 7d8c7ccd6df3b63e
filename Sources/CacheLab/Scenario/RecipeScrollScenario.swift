/// The built-in scenario: one person using a 63-recipe list app over several days.
///
/// A lazy list requests a row's small photo when the row comes within `prefetchRows` of the
/// viewport, once per appearance; opening a recipe requests its large photo. Each session starts
/// at the top of the list after an app relaunch (a `relaunch` event) and is a mix of gestures:
/// reading (slow scroll), flinging (fast scroll), bouncing back to the top, and opening a recipe.
/// Everything is drawn from one seed. A richer generator of people and gestures is planned; this
/// one is small on purpose.
public struct RecipeScrollScenario: Sendable, Equatable {
    public var recipes = 63
    public var days = 10
    /// Row height and viewport height in points, as on a phone.
    public var rowHeight = 110
    public var viewportHeight = 700
    /// Rows beyond each edge of the viewport whose photos are already requested.
    public var prefetchRows = 2
    public var seed: UInt64

    public init(seed: UInt64 = 1) {
        self.seed = seed
    }

    /// Rows the viewport shows at once (a partly visible row counts).
    public var visibleRows: Int { (viewportHeight + rowHeight - 1) / rowHeight }

    public func makeTrace() -> Trace {
        let catalog = RecipeCatalog(count: recipes, seed: seed)
        var builder = Builder(catalog: catalog, window: visibleRows + 2 * prefetchRows, prefetch: prefetchRows)
        var random = SplitMix64(seed: seed)
        for day in 0..<days {
            let sessions = Int.random(in: 1...3, using: &random)
            var clock = Int64(day) * 86_400_000 + Int64.random(in: 7...10, using: &random) * 3_600_000
            for _ in 0..<sessions {
                builder.startSession(at: clock, relaunch: !builder.trace.keys.isEmpty)
                builder.runSession(&random)
                clock = max(clock + Int64.random(in: 2...5, using: &random) * 3_600_000, builder.now + 60_000)
            }
        }
        var trace = builder.trace
        trace.name = "recipe-scroll(seed=\(seed))"
        return trace
    }

    /// Keeps the list's state while gestures move it, and writes the requests.
    struct Builder {
        let catalog: RecipeCatalog
        /// Rows that have photos requested at once: visible rows plus the prefetch margin on each side.
        let window: Int
        let prefetch: Int
        var trace = Trace(name: "recipe-scroll")
        var ids: [String: UInt64] = [:]
        var now: Int64 = 0
        /// The first visible row.
        var top = 0
        /// Rows currently within the prefetch window (their photos were requested on entry).
        var shown: Range<Int> = 0..<0

        init(catalog: RecipeCatalog, window: Int, prefetch: Int) {
            self.catalog = catalog
            self.window = window
            self.prefetch = prefetch
            trace.keyNames = []
        }

        var lastTop: Int { max(catalog.recipes.count - (window - 2 * prefetch), 0) }

        mutating func startSession(at time: Int64, relaunch: Bool) {
            now = time
            if relaunch { trace.appendEvent(.relaunch, time: now) }
            top = 0
            shown = 0..<0
            scroll(to: 0, millisecondsPerRow: 0)
        }

        mutating func runSession(_ random: inout SplitMix64) {
            let gestures = Int.random(in: 2...8, using: &random)
            for _ in 0..<gestures {
                let roll = random.nextUnit()
                if roll < 0.40 {
                    // Read: a slow scroll down a few rows, about two seconds a row.
                    scroll(to: top + Int.random(in: 2...8, using: &random), millisecondsPerRow: 2_000)
                } else if roll < 0.60 {
                    // Fling: many rows at about 25 rows a second; every row passed is rendered.
                    scroll(to: top + Int.random(in: 10...40, using: &random), millisecondsPerRow: 40)
                } else if roll < 0.75 {
                    // Bounce: back to the top quickly.
                    scroll(to: 0, millisecondsPerRow: 30)
                } else {
                    // Open a visible recipe, read it for a while, come back.
                    let visible = max(min(window - 2 * prefetch, catalog.recipes.count - top), 1)
                    let recipe = catalog.recipes[
                        min(top + Int.random(in: 0..<visible, using: &random), catalog.recipes.count - 1)]
                    now += 300
                    request(recipe.large)
                    now += Int64.random(in: 20_000...120_000, using: &random)
                }
                now += Int64.random(in: 1_000...10_000, using: &random)
            }
        }

        /// Moves the first visible row to `target` one row at a time, requesting the small photo
        /// of each row that enters the prefetch window.
        mutating func scroll(to target: Int, millisecondsPerRow: Int64) {
            let destination = min(max(target, 0), lastTop)
            repeat {
                if top < destination { top += 1 } else if top > destination { top -= 1 }
                now += millisecondsPerRow
                let wanted = max(top - prefetch, 0)..<min(top - prefetch + window, catalog.recipes.count)
                for row in wanted where !shown.contains(row) { request(catalog.recipes[row].small) }
                shown = wanted
            } while top != destination
        }

        mutating func request(_ photo: RecipeCatalog.Photo) {
            let id: UInt64
            if let known = ids[photo.url] {
                id = known
            } else {
                id = UInt64(trace.keyNames!.count)
                ids[photo.url] = id
                trace.keyNames!.append(photo.url)
            }
            trace.append(time: now, key: id, size: photo.size)
        }
    }
}
