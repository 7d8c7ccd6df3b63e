import ClientModel

/// A named way people use a recipe list: who (personas), on what (device, catalog), for how long,
/// and how many of them. One person gives a device's trace, with app events; several give a
/// population's requests interleaved by time, as a shared cache in front of the API (a CDN) sees
/// them — without app events, which mean nothing to a shared cache.
public struct ScrollScenario: Sendable, Equatable {
    /// A persona and its share of the people.
    public struct Share: Sendable, Equatable {
        public var persona: Persona
        public var weight: Double

        public init(_ persona: Persona, _ weight: Double = 1) {
            self.persona = persona
            self.weight = weight
        }
    }

    public var name: String
    public var summary: String
    public var recipes: Int
    public var days: Int
    public var device: Device
    /// How the app's list asks for photos (a lazy stack, or a collection view with a prefetcher).
    public var list: ListKind
    /// Which photo a row shows: the thumbnail (a list) or the large photo (a feed's cards).
    public var rowPhoto: RowPhoto
    /// When the list changes: once a day (a catalog) or as items arrive (a feed).
    public var updates: CatalogTimeline.Updates
    public var people: [Share]
    public var users: Int
    /// Whether each persona gets exactly its share of the users (largest remainders, in the
    /// order of `people`) instead of each user's persona being drawn by weight: a population
    /// whose aggregates are checked against published ones, without the draw's noise.
    public var exactShares: Bool
    public var newRecipesPerWeek: Double
    public var photoChangesPerWeek: Double
    public var seed: UInt64

    public init(
        name: String, summary: String, recipes: Int = 63, days: Int = 14, device: Device = .phone,
        list: ListKind = .lazyStack, rowPhoto: RowPhoto = .small, updates: CatalogTimeline.Updates = .daily,
        people: [Share], users: Int = 1, exactShares: Bool = false, newRecipesPerWeek: Double = 0,
        photoChangesPerWeek: Double = 0, seed: UInt64 = 1
    ) {
        precondition(
            !people.isEmpty && users > 0 && recipes > 0 && days > 0, "a scenario needs people, recipes and days")
        self.name = name
        self.summary = summary
        self.recipes = recipes
        self.days = days
        self.device = device
        self.list = list
        self.rowPhoto = rowPhoto
        self.updates = updates
        self.people = people
        self.users = users
        self.exactShares = exactShares
        self.newRecipesPerWeek = newRecipesPerWeek
        self.photoChangesPerWeek = photoChangesPerWeek
        self.seed = seed
    }

    /// The list's timeline: the catalog or feed every person of the scenario sees.
    public func makeTimeline() -> CatalogTimeline {
        CatalogTimeline(
            recipes: recipes, days: days, newRecipesPerWeek: newRecipesPerWeek,
            photoChangesPerWeek: photoChangesPerWeek, seed: seed, updates: updates)
    }

    /// Each person's persona, in order: drawn by weight from `people`, or given by exact shares.
    public func personas() -> [Persona] {
        if exactShares {
            let total = people.map(\.weight).reduce(0, +)
            let quotas = people.map { Double(users) * $0.weight / total }
            var counts = quotas.map { Int($0.rounded(.down)) }
            let byRemainder = quotas.indices.sorted {
                quotas[$0] - Double(counts[$0]) > quotas[$1] - Double(counts[$1])
            }
            for index in byRemainder.prefix(users - counts.reduce(0, +)) { counts[index] += 1 }
            return zip(people, counts).flatMap { Array(repeating: $0.persona, count: $1) }
        }
        var chooser = SplitMix64(seed: seed ^ 0x5EED_0F_9E0F1E)
        return (0..<users).map { _ in people[CatalogTimeline.weightedIndex(people.map(\.weight), &chooser)].persona }
    }

    /// What person `user` (with `persona`) requests on `timeline`, by photo id.
    func simulate(user: Int, persona: Persona, on timeline: CatalogTimeline) -> ListSimulator.Output {
        var simulator = ListSimulator(
            device: device, list: list, rowPhoto: rowPhoto, persona: persona, timeline: timeline,
            seed: seed &+ UInt64(user) &* 0x9E37_79B9_7F4A_7C15)
        simulator.run(days: days)
        return simulator.output
    }

    /// Generates the trace: deterministic for a given scenario and seed.
    public func makeTrace() -> Trace {
        let timeline = makeTimeline()
        let outputs = personas().enumerated().map { user, persona in
            simulate(user: user, persona: persona, on: timeline)
        }
        let listName = list == .lazyStack ? "" : ", list=\(list.rawValue)"
        var builder = PhotoTraceBuilder(name: "\(name)(seed=\(seed)\(listName))", timeline: timeline)
        if users == 1 {
            builder.append(outputs[0])
        } else {
            builder.interleave(outputs)
        }
        return builder.trace
    }
}

extension ScrollScenario {
    /// The trace of one person performing `script` on this scenario's list (its device, list kind
    /// and day-0 catalog): the model's side of a comparison with a browser.
    public func makeTrace(performing script: GestureScript) -> Trace {
        let timeline = CatalogTimeline(
            recipes: recipes, days: 1, newRecipesPerWeek: newRecipesPerWeek, photoChangesPerWeek: photoChangesPerWeek,
            seed: seed, updates: updates)
        var simulator = ListSimulator(
            device: device, list: list, rowPhoto: rowPhoto, persona: people[0].persona, timeline: timeline, seed: seed)
        simulator.run(script)
        var builder = PhotoTraceBuilder(name: "\(name)(script, \(device.name))", timeline: timeline)
        builder.append(simulator.output)
        return builder.trace
    }
}

/// Turns photo ids into a trace whose keys are the photos' URLs, numbered by first request.
struct PhotoTraceBuilder {
    let timeline: CatalogTimeline
    var trace: Trace
    private var keyOfPhoto: [Int32]

    init(name: String, timeline: CatalogTimeline) {
        self.timeline = timeline
        trace = Trace(name: name, keyNames: [])
        keyOfPhoto = Array(repeating: -1, count: timeline.photoURLs.count)
    }

    mutating func append(_ output: ListSimulator.Output) {
        trace.reserveCapacity(output.photos.count)
        var nextEvent = 0
        for index in output.photos.indices {
            while nextEvent < output.events.count, output.events[nextEvent].position == index {
                appendEvent(output.events[nextEvent])
                nextEvent += 1
            }
            request(output.photos[index], at: output.times[index])
        }
        for event in output.events[nextEvent...] { appendEvent(event) }
    }

    // A simulator's event names a photo by id (favourites); the trace, by the photo's key.
    private mutating func appendEvent(_ event: TraceEvent) {
        trace.appendEvent(event.kind, time: event.time, key: event.key.map { UInt64(key(of: Int32($0))) })
    }

    /// Merges several people's requests by time (ties in person order); events are left out.
    ///
    /// - Complexity: O(n log p) for n requests of p people (a binary heap of each person's next request).
    mutating func interleave(_ outputs: [ListSimulator.Output]) {
        trace.reserveCapacity(outputs.reduce(0) { $0 + $1.photos.count })
        var cursors = Array(repeating: 0, count: outputs.count)
        // (time, person) of each person's next request; the heap orders them.
        var heap: [(time: Int64, person: Int)] = []
        func before(_ a: (time: Int64, person: Int), _ b: (time: Int64, person: Int)) -> Bool {
            a.time < b.time || (a.time == b.time && a.person < b.person)
        }
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                var smallest = parent
                for child in [2 * parent + 1, 2 * parent + 2]
                where child < heap.count && before(heap[child], heap[smallest]) {
                    smallest = child
                }
                if smallest == parent { return }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        for person in outputs.indices where !outputs[person].photos.isEmpty {
            heap.append((outputs[person].times[0], person))
        }
        for index in stride(from: heap.count / 2, through: 0, by: -1) { siftDown(index) }
        while let next = heap.first {
            let person = next.person
            request(outputs[person].photos[cursors[person]], at: next.time)
            cursors[person] += 1
            if cursors[person] < outputs[person].photos.count {
                heap[0] = (outputs[person].times[cursors[person]], person)
            } else {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            if !heap.isEmpty { siftDown(0) }
        }
    }

    private mutating func request(_ photo: Int32, at time: Int64) {
        trace.append(
            time: time, key: UInt64(key(of: photo)), size: timeline.photoSizes[Int(photo)],
            pixels: timeline.photoPixels[Int(photo)])
    }

    // The photo's key, numbered by first mention.
    private mutating func key(of photo: Int32) -> Int32 {
        var key = keyOfPhoto[Int(photo)]
        if key < 0 {
            key = Int32(trace.appendKeyName(timeline.photoURLs[Int(photo)]))
            keyOfPhoto[Int(photo)] = key
        }
        return key
    }
}
