/// A person's gestures on the recipe list, written down so that a real browser and the list
/// model can perform the same ones (`scripts/browser-trace` in headless Chromium,
/// `cachelab trace generate --gestures FILE` in the model) and their requests be compared.
///
/// One gesture a line; `#` starts a comment:
///
/// ```text
/// load              # open the list at the top
/// read 1000 80      # scroll down 1,000 points at 80 points a second
/// fling 3000        # a flick at 3,000 points a second (negative: up), decelerating as iOS does
/// wait 1.5          # seconds without moving
/// top               # back to the top at once
/// open 2            # open the recipe in the third row on screen, read it 3 s, come back
/// reload            # reload the page: a relaunch, the list at the top again
/// ```
public struct GestureScript: Sendable, Equatable {
    public enum Gesture: Sendable, Equatable {
        case load
        case read(points: Double, speed: Double)
        case fling(velocity: Double)
        case wait(seconds: Double)
        case top
        case open(row: Int)
        case reload
    }

    public var gestures: [Gesture]

    public init(gestures: [Gesture]) {
        self.gestures = gestures
    }

    /// Seconds a recipe stays open.
    public static let secondsOnRecipe = 3.0

    /// Reads a script's text.
    ///
    /// - Throws: `TraceError.malformedLine` naming the line that is not a gesture.
    public init(parsing text: String, file: String = "gestures") throws(TraceError) {
        var gestures: [Gesture] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let name = words.first else { continue }
            let numbers = words.dropFirst().compactMap(Double.init)
            func malformed(_ expected: String) -> TraceError {
                .malformedLine(file: file, line: index + 1, reason: "expected \(expected), found '\(line)'")
            }
            let gesture: Gesture
            switch (name, numbers.count, words.count - 1) {
            case ("load", 0, 0): gesture = .load
            case ("top", 0, 0): gesture = .top
            case ("reload", 0, 0): gesture = .reload
            case ("read", 2, 2) where numbers[0] >= 0 && numbers[1] > 0:
                gesture = .read(points: numbers[0], speed: numbers[1])
            case ("fling", 1, 1) where numbers[0].isFinite: gesture = .fling(velocity: numbers[0])
            case ("wait", 1, 1) where numbers[0] >= 0: gesture = .wait(seconds: numbers[0])
            case ("open", 1, 1) where numbers[0] >= 0 && numbers[0] == numbers[0].rounded():
                gesture = .open(row: Int(numbers[0]))
            default:
                throw malformed(
                    "load, read POINTS SPEED, fling VELOCITY, wait SECONDS, top, open ROW or reload")
            }
            gestures.append(gesture)
        }
        guard gestures.first == .load else {
            throw .malformedLine(file: file, line: 1, reason: "a gesture script starts with 'load'")
        }
        self.gestures = gestures
    }
}
