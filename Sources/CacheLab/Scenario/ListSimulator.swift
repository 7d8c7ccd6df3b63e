import ClientModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One person's app, simulated: a lazy list on a device, moved by the person's gestures over
/// days of sessions, writing a request whenever a row's photo is needed.
///
/// The lazy stack's rule: a row's small photo is requested when the row comes within
/// `device.prefetchMargin` points of the viewport (`prefetchRows` rows), once per appearance (leaving that band and coming
/// back is a new appearance); rows never reached are never requested. A prefetching list
/// (`ListKind.prefetching`) asks its prefetcher for a row's photo as the row enters the band (a
/// `prefetch` event before that request), requests it again when the row shows in the viewport,
/// and stops the prefetch (`stop_prefetch`) when the row leaves the band unshown, or the list's
/// rows are replaced. Opening a recipe requests
/// its large photo; going back requests nothing (the list's rows are still there).
/// A session after a long gap starts with a relaunch (the list at the top, memory caches empty);
/// after a short one the app comes back from the background as it was.
///
/// Favourites: after reading an opened recipe the person may favourite it (`Persona.favouriteChance`),
/// and at the start of a session may unfavourite one (`Persona.unfavouriteChance`): a `favourite`
/// or `unfavourite` event per photo of the recipe, naming the photos it had when favourited.
/// Those choices draw from a random stream of their own, so adding them changed no request.
///
/// Pressure: between two gestures the system may warn of low memory (`memory_warning`, at the
/// persona's rate per hour of use), and the person may leave the app for the pause before the
/// next gesture (`background`, then `foreground` at its end; `Persona.interruptionsPerHour`).
/// They draw from a stream of their own too, and take no time the sessions did not already have.
struct ListSimulator {
    /// What one person requested, by photo id; events keep their position among the requests.
    struct Output {
        var times: [Int64] = []
        var photos: [Int32] = []
        var events: [TraceEvent] = []
        /// When each session began and ended (ms), and how many requests came before it began.
        var sessions: [(start: Int64, end: Int64, position: Int)] = []
        /// Rows that came into the viewport, each time they did (the cards a person saw).
        var rowsShown = 0
    }

    /// An app left in the background longer than this is gone: the next session is a relaunch.
    static let backgroundSurvival = 30.0 * 60
    /// UIScrollView's normal deceleration: velocity × 0.998 per millisecond.
    static let decelerationPerFrame = 0.967_171
    static let frame = 1.0 / 60

    let device: Device
    let list: ListKind
    /// Which of a recipe's photos its row shows: the small one in a list, the large one on a card.
    let rowPhoto: RowPhoto
    let persona: Persona
    let timeline: CatalogTimeline
    var random: SplitMix64
    var output = Output()
    /// Draws the favourites' choices only, so the requests do not depend on them.
    private var favouriteRandom: SplitMix64
    /// Draws memory warnings and interruptions only.
    private var pressureRandom: SplitMix64
    /// The favourited recipes' photos (small, large), oldest favourite first.
    private(set) var favourites: [(recipe: Int32, small: Int32, large: Int32)] = []

    /// Seconds of trace time.
    private var now = 0.0
    private(set) var rows: [Int32] = []
    private var snapshot: CatalogTimeline.Snapshot
    private(set) var offset = 0.0
    private var window = 0..<0
    // A prefetching list's rows in the viewport.
    private var visible = 0..<0
    // A prefetching list's rows prefetched since they entered the band and not shown since.
    private var prefetched: Set<Int> = []
    // The rows in the viewport, for `Output.rowsShown`.
    private var viewport = 0..<0
    // Items in the order they were first seen, and when (seconds); `seen` marks them. Kept for a
    // persona that revisits only.
    private var firstSeen: [(time: Double, item: Int32)] = []
    private var seen: Set<Int32> = []
    // A web page's rows whose photo it has loaded since the page was shown.
    private var loaded: Set<Int> = []

    init(
        device: Device, list: ListKind = .lazyStack, rowPhoto: RowPhoto = .small, persona: Persona,
        timeline: CatalogTimeline, seed: UInt64
    ) {
        self.device = device
        self.list = list
        self.rowPhoto = rowPhoto
        self.persona = persona
        self.timeline = timeline
        self.random = SplitMix64(seed: seed)
        self.favouriteRandom = SplitMix64(seed: seed ^ 0xFA57_0B1E_C7ED_0001)
        self.pressureRandom = SplitMix64(seed: seed ^ 0x9E55_07E5_0000_0002)
        self.snapshot = timeline.snapshot(onDay: 0)
    }

    /// Runs the person's sessions over `days` days.
    mutating func run(days: Int) {
        var activeDay = Int(random.next() % UInt64(persona.daysBetweenActiveDays.upperBound))
        var lastSessionEnd: Double?
        while activeDay < days {
            let sessions = Int.random(in: persona.sessionsPerDay, using: &random)
            // Session starts spread over the waking day (7:00 to 23:00), in order.
            let starts = (0..<sessions).map { _ in Double.random(in: 7 * 3_600..<23 * 3_600, using: &random) }.sorted()
            for start in starts {
                let startTime = max(Double(activeDay) * 86_400 + start, now + 60)
                now = startTime
                let sessionStart = (milliseconds, output.photos.count)
                if let end = lastSessionEnd, startTime - end < Self.backgroundSurvival {
                    record(.foreground)
                } else {
                    if lastSessionEnd != nil { record(.relaunch) }
                    launch(day: activeDay)
                }
                if !favourites.isEmpty, favouriteRandom.nextUnit() < persona.unfavouriteChance {
                    let gone = favourites.remove(at: Int(favouriteRandom.next() % UInt64(favourites.count)))
                    record(.unfavourite, photo: gone.small)
                    record(.unfavourite, photo: gone.large)
                }
                let gestures = Int.random(in: persona.gesturesPerSession, using: &random)
                for _ in 0..<gestures {
                    let gestureStart = now
                    perform(nextGesture())
                    let pause = Double.random(in: persona.pauseBetweenGestures, using: &random)
                    pressure(over: now - gestureStart, pause: pause)
                    now += pause
                }
                record(.background)
                output.sessions.append((sessionStart.0, milliseconds, sessionStart.1))
                lastSessionEnd = now
            }
            activeDay += Int.random(in: persona.daysBetweenActiveDays, using: &random)
        }
    }

    /// Draws the pressure events for a gesture of `seconds` and the pause after it: a memory
    /// warning at the gesture's end; an interruption as the background for the pause, back at its
    /// end (the pause's clock is unchanged: only events are added).
    private mutating func pressure(over seconds: Double, pause: Double) {
        let hours = (seconds + pause) / 3_600
        if pressureRandom.nextUnit() < 1 - exp(-persona.memoryWarningsPerHour * hours) {
            record(.memoryWarning)
        }
        if pressureRandom.nextUnit() < 1 - exp(-persona.interruptionsPerHour * hours) {
            record(.background)
            let resume = now
            now += pause
            record(.foreground)
            now = resume
        }
    }

    // MARK: - Gestures

    enum Gesture: CaseIterable {
        case read, fling, bounce, jumpToTop, search, open, revisit
    }

    private mutating func nextGesture() -> Gesture {
        let mix = persona.mix
        let weights = [mix.read, mix.fling, mix.bounce, mix.jumpToTop, mix.search, mix.open, mix.revisit]
        return Gesture.allCases[CatalogTimeline.weightedIndex(weights, &random)]
    }

    mutating func perform(_ gesture: Gesture) {
        switch gesture {
        case .read:
            read(rows: Double.random(in: 1...6, using: &random))
        case .fling:
            // Mostly down; up now and then when not at the top.
            let up = offset > 0 && random.nextUnit() < 0.2
            fling(velocity: Double.random(in: persona.flingVelocity, using: &random) * (up ? -1 : 1))
        case .bounce:
            fling(velocity: Double.random(in: persona.flingVelocity, using: &random))
            now += Double.random(in: 0.5...3, using: &random)
            while offset > 0 { fling(velocity: -persona.flingVelocity.upperBound) }
        case .jumpToTop:
            jumpToTop()
        case .search:
            search()
        case .open:
            openRecipe()
        case .revisit:
            revisit()
        }
    }

    /// How long before now a revisited item was first seen, by share of revisits past the
    /// session: within a day, within a week, longer (Obendorf et al., CHI 2007: of revisits,
    /// 12 % within a day, 7.8 % within a week and 7.6 % longer, past the 72.6 % within an hour
    /// that scrolling back already makes).
    static let revisitAges: [(share: Double, seconds: ClosedRange<Double>)] = [
        (12, 3_600...86_400), (7.8, 86_400...7 * 86_400), (7.6, 7 * 86_400...Double.greatestFiniteMagnitude),
    ]

    /// Opens an item first seen in an earlier session, as long ago as `revisitAges` draws: its
    /// large photo is requested, read for a while, and the list comes back as it was. Nothing
    /// happens when no item was seen that long ago.
    mutating func revisit() {
        let age = Self.revisitAges[CatalogTimeline.weightedIndex(Self.revisitAges.map(\.share), &random)].seconds
        let newest = now - age.lowerBound
        let oldest = now - min(age.upperBound, now)
        // `firstSeen` is in time order: the items first seen between `oldest` and `newest`.
        let start = firstSeen.partitioningIndex { $0.time >= oldest }
        let end = firstSeen.partitioningIndex { $0.time > newest }
        guard start < end else { return }
        let item = firstSeen[Int.random(in: start..<end, using: &random)].item
        show(recipe: item)
        now += Double.random(in: persona.secondsOnRecipe, using: &random)
    }

    /// Performs `script` from the start, at time 0: the same gestures a browser performs
    /// (`scripts/browser-trace`), with no randomness.
    mutating func run(_ script: GestureScript) {
        for gesture in script.gestures {
            switch gesture {
            case .load:
                launch(day: 0)
            case .reload:
                // A browser restores the page's scroll position on a reload; an app starts at the top.
                let restored = list == .webPage ? offset : 0
                record(.relaunch)
                prefetched.removeAll()
                snapshot = timeline.snapshot(onDay: 0)
                show(snapshot.order, at: restored)
            case .read(let points, let speed):
                read(points: points, speed: speed)
            case .fling(let velocity):
                fling(velocity: velocity)
            case .wait(let seconds):
                now += seconds
            case .top:
                move(to: 0)
            case .open(let row):
                guard firstVisibleRow + row < rows.count else { continue }
                show(recipe: rows[firstVisibleRow + row])
                now += GestureScript.secondsOnRecipe
            }
        }
    }

    /// A slow steady scroll down by `rows` rows at the person's reading speed.
    private mutating func read(rows count: Double) {
        read(points: count * device.rowHeight, speed: Double.random(in: persona.readSpeed, using: &random))
    }

    /// A steady scroll down by `points` at `speed` points a second.
    private mutating func read(points: Double, speed: Double) {
        var remaining = points
        while remaining > 0, offset < maxOffset {
            // Jump straight to the next offset where the window's edges cross a row boundary:
            // nothing else can change what is requested.
            let step = min(distanceToNextBoundary(), remaining, maxOffset - offset)
            remaining -= step
            now += step / speed
            move(to: offset + step)
        }
    }

    /// A flick with `velocity` (points per second, negative is up) that decelerates frame by frame.
    private mutating func fling(velocity initial: Double) {
        var velocity = initial
        while abs(velocity) > 10 {
            let target = offset + velocity * Self.frame
            now += Self.frame
            move(to: target)
            if offset <= 0 || offset >= maxOffset { break }
            velocity *= Self.decelerationPerFrame
        }
    }

    /// A tap on the status bar: a 0.3 s ease-out animation to the top, drawn frame by frame, so
    /// on a long list the rows between frames are never drawn.
    mutating func jumpToTop() {
        let start = offset
        let frames = 18
        for index in 1...frames {
            let progress = Double(index) / Double(frames)
            let eased = 1 - (1 - progress) * (1 - progress) * (1 - progress)
            now += Self.frame
            move(to: start * (1 - eased))
        }
    }

    /// Filters by a cuisine: the list shows only those recipes, from the top; reads a little,
    /// maybe opens one, then clears the filter (the full list, from the top).
    private mutating func search() {
        let wanted = UInt8(CatalogTimeline.weightedIndex(CatalogTimeline.cuisineWeights, &random))
        now += Double.random(in: 1...4, using: &random)  // typing
        show(snapshot.order.filter { timeline.cuisine[Int($0)] == wanted })
        read(rows: Double.random(in: 0...3, using: &random))
        if random.nextUnit() < 0.5 { openRecipe() }
        now += Double.random(in: 1...3, using: &random)
        show(snapshot.order)
    }

    /// The row at the top of the viewport.
    private var firstVisibleRow: Int { Int((offset / device.rowHeight).rounded(.down)) }

    /// Taps `recipe`'s row: its page opens 0.3 s later and asks for the large photo.
    private mutating func show(recipe: Int32) {
        now += 0.3
        request(snapshot.largePhoto[Int(recipe)])
    }

    /// Opens a recipe shown in the viewport, reads it, comes back.
    mutating func openRecipe() {
        let first = firstVisibleRow
        let last = min(Int(((offset + device.viewportHeight) / device.rowHeight).rounded(.up)), rows.count)
        guard first < last else { return }
        let recipe = rows[Int.random(in: first..<last, using: &random)]
        show(recipe: recipe)
        now += Double.random(in: persona.secondsOnRecipe, using: &random)
        if favouriteRandom.nextUnit() < persona.favouriteChance, !favourites.contains(where: { $0.recipe == recipe }) {
            let small = snapshot.smallPhoto[Int(recipe)]
            let large = snapshot.largePhoto[Int(recipe)]
            favourites.append((recipe, small, large))
            record(.favourite, photo: small)
            record(.favourite, photo: large)
        }
    }

    // MARK: - The lazy list

    private var maxOffset: Double { max(Double(rows.count) * device.rowHeight - device.viewportHeight, 0) }

    /// The app starts: today's catalog (a feed: what has arrived by now), the list at the top.
    mutating func launch(day: Int) {
        // The app starts afresh: no prefetch of the last launch is left to stop.
        prefetched.removeAll()
        snapshot = timeline.snapshot(onDay: day, at: now)
        show(snapshot.order)
    }

    /// Replaces the list's rows and scrolls to `position` (the top by default): every row then in
    /// the band is a new appearance.
    private mutating func show(_ newRows: [Int32], at position: Double = 0) {
        stopPrefetches(outside: 0..<0)
        rows = newRows
        offset = 0
        window = 0..<0
        visible = 0..<0
        viewport = 0..<0
        loaded.removeAll(keepingCapacity: true)
        move(to: position)
    }

    /// Rows that intersect the viewport widened by the prefetch margin, at `offset`.
    func band(at offset: Double) -> Range<Int> {
        rows(at: offset, widenedBy: device.prefetchMargin)
    }

    /// Rows that intersect the viewport widened by `margin` points each way, at `offset`.
    private func rows(at offset: Double, widenedBy margin: Double) -> Range<Int> {
        let first = max(Int(((offset - margin) / device.rowHeight).rounded(.down)), 0)
        let end = min(Int(((offset + device.viewportHeight + margin) / device.rowHeight).rounded(.up)), rows.count)
        return first < end ? first..<end : first..<first
    }

    /// How far the list can scroll down before an edge of the band (or, for a prefetching list,
    /// of the viewport) crosses a row boundary.
    private func distanceToNextBoundary() -> Double {
        let height = device.rowHeight
        var distance = Double.infinity
        for margin in list == .prefetching ? [device.prefetchMargin, 0] : [device.prefetchMargin] {
            let top = offset - margin
            let bottom = offset + device.viewportHeight + margin
            let nextTop = ((top / height).rounded(.down) + 1) * height - top
            let nextBottom = ((bottom / height).rounded(.down) + 1) * height - bottom
            distance = min(distance, nextTop, nextBottom)
        }
        return max(distance, 1e-6)
    }

    /// Scrolls to `target` (clamped) and requests the photo of every row that entered the band,
    /// in the order they come into view; a prefetching list then requests again each row that
    /// came into the viewport (but for those that came straight into it, asked once).
    mutating func move(to target: Double) {
        offset = min(max(target, 0), maxOffset)
        let shownNow = rows(at: offset, widenedBy: 0)
        output.rowsShown += shownNow.count - shownNow.clamped(to: viewport).count
        if persona.mix.revisit > 0 {
            for row in shownNow where !viewport.contains(row) && seen.insert(rows[row]).inserted {
                firstSeen.append((now, rows[row]))
            }
        }
        viewport = shownNow
        let new = band(at: offset)
        switch list {
        case .lazyStack:
            requestRows(entering: new, from: window)
            window = new
            return
        case .webPage:
            requestRows(entering: new, from: window, onlyOnce: true)
            window = new
            return
        case .prefetching:
            break
        }
        let shown = rows(at: offset, widenedBy: 0)
        stopPrefetches(outside: new)
        requestRows(entering: new, from: window, except: shown, prefetching: true)
        requestRows(entering: shown, from: visible)
        for row in shown { prefetched.remove(row) }
        window = new
        visible = shown
    }

    /// Stops the prefetches of the rows that left the band (now `band`) unshown, top to bottom.
    private mutating func stopPrefetches(outside band: Range<Int>) {
        guard !prefetched.isEmpty else { return }
        for row in window where !band.contains(row) && prefetched.remove(row) != nil {
            record(.stopPrefetch, photo: photo(ofRow: row))
        }
    }

    /// The photo row `row` shows.
    private func photo(ofRow row: Int) -> Int32 {
        let recipe = Int(rows[row])
        return rowPhoto == .small ? snapshot.smallPhoto[recipe] : snapshot.largePhoto[recipe]
    }

    /// Requests the photos of the rows in `new` but not in `old`, but for those in `except`:
    /// rows entering at the top edge show bottom-up; at the bottom edge, top-down.
    /// `onlyOnce`: a row already loaded since the list was shown is not asked for again.
    /// `prefetching`: each is the prefetcher's request, after a `prefetch` event.
    private mutating func requestRows(
        entering new: Range<Int>, from old: Range<Int>, except: Range<Int> = 0..<0, onlyOnce: Bool = false,
        prefetching: Bool = false
    ) {
        func ask(_ row: Int) {
            guard !except.contains(row), !onlyOnce || loaded.insert(row).inserted else { return }
            let photo = photo(ofRow: row)
            if prefetching {
                prefetched.insert(row)
                record(.prefetch, photo: photo)
            }
            request(photo)
        }
        if old.isEmpty {
            for row in new { ask(row) }
        } else {
            let aboveEnd = max(min(new.upperBound, old.lowerBound), new.lowerBound)
            for row in (new.lowerBound..<aboveEnd).reversed() { ask(row) }
            let belowStart = min(max(new.lowerBound, old.upperBound), new.upperBound)
            for row in belowStart..<new.upperBound { ask(row) }
        }
    }

    private mutating func request(_ photo: Int32) {
        output.times.append(milliseconds)
        output.photos.append(photo)
    }

    /// Records an event now; a favourite's names its photo by id (`PhotoTraceBuilder` makes it a key).
    private mutating func record(_ kind: TraceEvent.Kind, photo: Int32? = nil) {
        output.events.append(
            TraceEvent(position: output.photos.count, time: milliseconds, kind: kind, key: photo.map { UInt64($0) }))
    }

    private var milliseconds: Int64 { Int64((now * 1_000).rounded(.down)) }
}
