/// The screen a list is shown on: how tall the viewport and the rows are, and how many rows
/// beyond each edge a lazy stack prepares in advance.
public struct Device: Sendable, Equatable {
    public var name: String
    /// Height of the list's visible area, in points (the screen minus bars).
    public var viewportHeight: Double
    /// Height of one row (photo, name and cuisine), in points.
    public var rowHeight: Double
    /// Rows beyond each edge of the viewport whose photos are requested before they show.
    public var prefetchRows: Int
    /// Instead of `prefetchRows`, a distance in points beyond each edge (a browser's lazy-load
    /// distance is in pixels, not rows).
    public var prefetchPoints: Double?

    /// How far beyond each edge of the viewport photos are requested, in points.
    public var prefetchMargin: Double { prefetchPoints ?? Double(prefetchRows) * rowHeight }

    public init(
        name: String, viewportHeight: Double, rowHeight: Double, prefetchRows: Int, prefetchPoints: Double? = nil
    ) {
        precondition(
            viewportHeight > 0 && rowHeight > 0 && prefetchRows >= 0 && (prefetchPoints ?? 0) >= 0,
            "a device needs positive sizes")
        self.name = name
        self.viewportHeight = viewportHeight
        self.rowHeight = rowHeight
        self.prefetchRows = prefetchRows
        self.prefetchPoints = prefetchPoints
    }

    /// A 6.1-inch phone: 852 pt tall, about 700 pt of list between the navigation and tab bars.
    public static let phone = Device(name: "phone", viewportHeight: 700, rowHeight: 110, prefetchRows: 2)
    /// A 4.7-inch phone: 667 pt tall, about 540 pt of list.
    public static let smallPhone = Device(name: "small-phone", viewportHeight: 540, rowHeight: 100, prefetchRows: 1)
    /// An 11-inch tablet in portrait: 1194 pt tall, about 1050 pt of list.
    public static let tablet = Device(name: "tablet", viewportHeight: 1_050, rowHeight: 120, prefetchRows: 3)

    /// The recipe list as a web page in headless Chromium at a phone-sized window (390 × 700 CSS
    /// pixels, rows of 110): a lazy image loads within 1,250 px of the viewport on a connection
    /// Chromium reports as 4G, its lazy-load distance for 4G: the rows `scripts/browser-trace`
    /// sees Chromium fetch on load are the ones within that distance (the DocC article A real
    /// browser against the list model has the count).
    public static let browser = Device(
        name: "browser", viewportHeight: 700, rowHeight: 110, prefetchRows: 11, prefetchPoints: 1_250)

    /// The 6.1-inch phone showing a feed of cards: each card the screen's width, a square photo
    /// of 390 pt with its header, actions and caption, 520 pt in all; one card prepared beyond
    /// each edge.
    public static let cardPhone = Device(name: "card-phone", viewportHeight: 700, rowHeight: 520, prefetchRows: 1)

    public static let all: [Device] = [.phone, .smallPhone, .tablet, .browser, .cardPhone]

    /// The preset called `name`, if there is one.
    public static func named(_ name: String) -> Device? { all.first { $0.name == name } }
}
