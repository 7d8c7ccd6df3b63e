/// How often each fault is injected: the chance, per request for a list or a photo, that the
/// response suffers that fault. At most one fault per request; the rates add up to at most 1.
public struct FaultRates: Sendable, Equatable {
    public private(set) var rates: [FaultKind: Double]

    public init(_ rates: [FaultKind: Double] = [:]) {
        self.rates = rates.filter { $0.value > 0 }
    }

    /// No faults.
    public static let none = FaultRates()

    /// `total` spread evenly over `kinds`.
    public static func spread(_ total: Double, over kinds: [FaultKind] = FaultKind.allCases) -> FaultRates {
        let unique = FaultKind.allCases.filter(kinds.contains)
        guard !unique.isEmpty else { return .none }
        return FaultRates(Dictionary(uniqueKeysWithValues: unique.map { ($0, total / Double(unique.count)) }))
    }

    /// The chance that a request gets any fault.
    public var total: Double { rates.values.reduce(0, +) }

    /// The fault for a uniform draw `unit` in `0..<1`, or nil: the kinds take consecutive slices of
    /// `0..<total` in declaration order.
    public func fault(forDraw unit: Double) -> FaultKind? {
        var edge = 0.0
        for kind in FaultKind.allCases {
            edge += rates[kind] ?? 0
            if unit < edge { return kind }
        }
        return nil
    }

    func validate() throws(FixtureServerError) {
        guard rates.values.allSatisfy({ $0 >= 0 && $0 <= 1 }), total <= 1 + 1e-9 else {
            throw .invalidConfiguration("fault rates must be between 0 and 1 and add up to at most 1")
        }
    }
}
