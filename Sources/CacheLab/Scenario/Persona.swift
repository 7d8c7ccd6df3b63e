/// How one kind of person uses the list: which gestures, how often, how fast, how many sessions.
public struct Persona: Sendable, Equatable {
    /// Relative weights of the gestures a session is made of.
    public struct GestureMix: Sendable, Equatable {
        public var read: Double
        public var fling: Double
        public var bounce: Double
        public var jumpToTop: Double
        public var search: Double
        public var open: Double
        /// Opening an item seen in an earlier session again (from the history, a saved list, a
        /// link): how long ago it was first seen follows `Persona.revisitAges`.
        public var revisit: Double

        public init(
            read: Double, fling: Double, bounce: Double, jumpToTop: Double, search: Double, open: Double,
            revisit: Double = 0
        ) {
            self.read = read
            self.fling = fling
            self.bounce = bounce
            self.jumpToTop = jumpToTop
            self.search = search
            self.open = open
            self.revisit = revisit
        }
    }

    public var name: String
    public var mix: GestureMix
    public var gesturesPerSession: ClosedRange<Int>
    public var sessionsPerDay: ClosedRange<Int>
    /// Days from one active day to the next (1...1 = every day).
    public var daysBetweenActiveDays: ClosedRange<Int>
    /// Reading scroll speed, points per second.
    public var readSpeed: ClosedRange<Double>
    /// Initial fling velocity, points per second.
    public var flingVelocity: ClosedRange<Double>
    /// Seconds spent on an opened recipe before going back.
    public var secondsOnRecipe: ClosedRange<Double>
    /// Seconds between two gestures (looking at what is on screen).
    public var pauseBetweenGestures: ClosedRange<Double>
    /// Chance that a recipe opened and read is favourited (if it is not already).
    public var favouriteChance: Double
    /// Chance, at the start of a session, that one favourite (chosen at random) is unfavourited.
    public var unfavouriteChance: Double
    /// Memory warnings per hour of use (the system asking the app to free memory).
    public var memoryWarningsPerHour: Double
    /// Interruptions per hour of use: the app goes to the background during a pause between
    /// gestures (a message, a call) and comes back at its end.
    public var interruptionsPerHour: Double

    public init(
        name: String, mix: GestureMix, gesturesPerSession: ClosedRange<Int>, sessionsPerDay: ClosedRange<Int>,
        daysBetweenActiveDays: ClosedRange<Int>, readSpeed: ClosedRange<Double>, flingVelocity: ClosedRange<Double>,
        secondsOnRecipe: ClosedRange<Double>, pauseBetweenGestures: ClosedRange<Double> = 1...8,
        favouriteChance: Double = 0.25, unfavouriteChance: Double = 0.1, memoryWarningsPerHour: Double = 1,
        interruptionsPerHour: Double = 4
    ) {
        precondition(
            (0...1).contains(favouriteChance) && (0...1).contains(unfavouriteChance), "chances are in 0...1")
        precondition(
            memoryWarningsPerHour >= 0 && interruptionsPerHour >= 0 && memoryWarningsPerHour.isFinite
                && interruptionsPerHour.isFinite, "rates are finite and not negative")
        self.name = name
        self.mix = mix
        self.gesturesPerSession = gesturesPerSession
        self.sessionsPerDay = sessionsPerDay
        self.daysBetweenActiveDays = daysBetweenActiveDays
        self.readSpeed = readSpeed
        self.flingVelocity = flingVelocity
        self.secondsOnRecipe = secondsOnRecipe
        self.pauseBetweenGestures = pauseBetweenGestures
        self.favouriteChance = favouriteChance
        self.unfavouriteChance = unfavouriteChance
        self.memoryWarningsPerHour = memoryWarningsPerHour
        self.interruptionsPerHour = interruptionsPerHour
    }

    /// Reads the list slowly and opens what looks good; most days, once or twice.
    public static let reader = Persona(
        name: "reader",
        mix: GestureMix(read: 55, fling: 5, bounce: 5, jumpToTop: 5, search: 5, open: 25),
        gesturesPerSession: 4...12, sessionsPerDay: 1...2, daysBetweenActiveDays: 1...2,
        readSpeed: 40...90, flingVelocity: 1_500...3_000, secondsOnRecipe: 20...120)

    /// Skims: flings down, jumps back to the top, rarely opens anything; several short sessions a day.
    public static let flinger = Persona(
        name: "flinger",
        mix: GestureMix(read: 10, fling: 45, bounce: 15, jumpToTop: 20, search: 2, open: 8),
        gesturesPerSession: 3...10, sessionsPerDay: 2...5, daysBetweenActiveDays: 1...1,
        readSpeed: 80...150, flingVelocity: 2_500...7_000, secondsOnRecipe: 5...30, favouriteChance: 0.1)

    /// Opens recipe after recipe, going back to the list in between.
    public static let detailBrowser = Persona(
        name: "detail-browser",
        mix: GestureMix(read: 35, fling: 5, bounce: 5, jumpToTop: 5, search: 5, open: 45),
        gesturesPerSession: 6...16, sessionsPerDay: 1...2, daysBetweenActiveDays: 1...2,
        readSpeed: 50...100, flingVelocity: 1_500...3_500, secondsOnRecipe: 30...240, favouriteChance: 0.2)

    /// Comes back about once a week and reads what is new.
    public static let weeklyReturner = Persona(
        name: "weekly-returner",
        mix: GestureMix(read: 45, fling: 15, bounce: 5, jumpToTop: 5, search: 5, open: 25),
        gesturesPerSession: 6...14, sessionsPerDay: 1...1, daysBetweenActiveDays: 5...9,
        readSpeed: 50...100, flingVelocity: 2_000...4_000, secondsOnRecipe: 30...180)

    /// Filters by cuisine more than scrolling the whole list.
    public static let searcher = Persona(
        name: "searcher",
        mix: GestureMix(read: 25, fling: 5, bounce: 5, jumpToTop: 5, search: 35, open: 25),
        gesturesPerSession: 4...10, sessionsPerDay: 1...3, daysBetweenActiveDays: 1...2,
        readSpeed: 50...100, flingVelocity: 1_500...3_500, secondsOnRecipe: 20...90)

    /// Uses the app many times a day, every day: reads, flings, opens and jumps back, at length.
    public static let heavy = Persona(
        name: "heavy",
        mix: GestureMix(read: 40, fling: 25, bounce: 5, jumpToTop: 10, search: 5, open: 15),
        gesturesPerSession: 10...30, sessionsPerDay: 4...8, daysBetweenActiveDays: 1...1,
        readSpeed: 50...120, flingVelocity: 2_000...5_000, secondsOnRecipe: 10...90, favouriteChance: 0.1)

    /// A photo feed's reader (cards, newest first), as Facebook's users read their News Feed:
    /// visits of 142 s on average (IDC for Facebook, 2013: 2 min 22 s a visit), one card every
    /// 1.7 s (Facebook, 2016: 1.7 s per piece of mobile content), reading down from the top with
    /// a fling now and then and a return to the top. How often a day is what sets the three
    /// apart (`feedLight`, `feedRegular`, `feedHeavy`); the DocC article Workloads gives each
    /// figure's source and how the mix of the three was fitted.
    static func feedReader(
        name: String, sessionsPerDay: ClosedRange<Int>, daysBetweenActiveDays: ClosedRange<Int>
    )
        -> Persona
    {
        Persona(
            name: name,
            mix: GestureMix(read: 80, fling: 10, bounce: 0, jumpToTop: 5, search: 0, open: 0, revisit: 5),
            // A read gesture moves 1 to 6 cards of 520 pt (3.5 on average) at 300 to 500 pt/s,
            // then pauses 0.5 to 2.5 s: about 6 s for 3.5 cards, 1.7 s a card; 24 gestures on
            // average make a 142 s visit.
            gesturesPerSession: 4...36, sessionsPerDay: sessionsPerDay, daysBetweenActiveDays: daysBetweenActiveDays,
            readSpeed: 235...400, flingVelocity: 2_000...5_000, secondsOnRecipe: 5...20,
            pauseBetweenGestures: 0.5...2.5, favouriteChance: 0, unfavouriteChance: 0)
    }

    /// Opens the feed a day or two in three, one to three times.
    public static let feedLight = feedReader(name: "feed-light", sessionsPerDay: 1...3, daysBetweenActiveDays: 1...3)
    /// Opens the feed every day, 8 to 20 times (14 on average: IDC's 13.8).
    public static let feedRegular = feedReader(
        name: "feed-regular", sessionsPerDay: 8...20, daysBetweenActiveDays: 1...1)
    /// Opens the feed every day, 20 to 40 times.
    public static let feedHeavy = feedReader(name: "feed-heavy", sessionsPerDay: 20...40, daysBetweenActiveDays: 1...1)

    public static let all: [Persona] = [
        .reader, .flinger, .detailBrowser, .weeklyReturner, .searcher, .heavy, .feedLight, .feedRegular, .feedHeavy,
    ]
}
