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

        public init(read: Double, fling: Double, bounce: Double, jumpToTop: Double, search: Double, open: Double) {
            self.read = read
            self.fling = fling
            self.bounce = bounce
            self.jumpToTop = jumpToTop
            self.search = search
            self.open = open
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
        secondsOnRecipe: ClosedRange<Double>, favouriteChance: Double = 0.25, unfavouriteChance: Double = 0.1,
        memoryWarningsPerHour: Double = 1, interruptionsPerHour: Double = 4
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

    public static let all: [Persona] = [.reader, .flinger, .detailBrowser, .weeklyReturner, .searcher, .heavy]
}
