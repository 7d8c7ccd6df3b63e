import ClientModel

/// Whether a live replay's outcomes agree with the simulated client's, request by request.
///
/// A hit, a miss and a failure are decided by the tiers' states, which the live pipeline and the
/// simulator keep alike: they must be equal. A delayed hit is decided by time as well — whether
/// the request came before its image's download ended. An unpaced live replay hands each
/// download over at its modelled end, so its margin is 0 and every outcome must be equal; a
/// paced one (`--speed`) follows the trace's times only as closely as the wall clock allows, so
/// a delayed hit agrees with a hit of either tier for the requests whose simulated time lies
/// within `margin` of that download's end (`RunResult.timingSlack`).
public struct OutcomeAgreement: Sendable, Equatable {
    /// Requests compared.
    public var requests = 0
    /// Requests whose outcomes agree.
    public var agreeing = 0
    /// Requests whose delayed-or-not was left to timing (within the margin; none with margin 0).
    public var undecided = 0
    /// Of the requests decided by timing, those the simulator and the live replay both called
    /// delayed hits.
    public var delayedBoth = 0
    /// The first disagreements (up to 10), in trace order.
    public var firstDisagreements: [Disagreement] = []

    /// A request whose live outcome disagrees with the simulated one.
    public struct Disagreement: Sendable, Equatable, CustomStringConvertible {
        /// The request's position in the trace (from 0).
        public var position: Int
        public var live: RequestOutcome
        public var simulated: RequestOutcome
        /// `RunResult.timingSlack` of the request, in microseconds of trace time.
        public var slack: UInt32

        public var description: String {
            let timing = slack == .max ? "" : ", \(Double(slack) / 1_000) ms from its download's end"
            return "request \(position + 1): live \(live), simulated \(simulated)\(timing)"
        }
    }

    /// Compares `live` with `simulated` (a simulated client run with outcomes).
    ///
    /// - Parameters:
    ///   - live: the live replay's outcomes, in trace order.
    ///   - simulated: the simulated client run of the same trace, with outcomes and timing slack.
    ///   - margin: the live replay's timing error, in microseconds of trace time: 0 when it was
    ///     not paced (every outcome must then be equal), `LiveOptions.timingMargin` when it was.
    public init(live: [RequestOutcome], simulated: RunResult, margin: Int) {
        guard let modelledOutcomes = simulated.outcomes, let slack = simulated.timingSlack else {
            preconditionFailure("OutcomeAgreement: a simulation without outcomes")
        }
        precondition(
            live.count == modelledOutcomes.count && slack.count == modelledOutcomes.count,
            "OutcomeAgreement: outcomes of different runs")
        requests = live.count
        for position in live.indices {
            let measured = live[position]
            let modelled = modelledOutcomes[position]
            let timed = Int(slack[position]) >= margin
            if !timed { undecided += 1 }
            let agrees: Bool
            if measured == modelled {
                agrees = true
                if timed, measured == .delayed { delayedBoth += 1 }
            } else {
                agrees =
                    !timed && measured.savesDownload && modelled.savesDownload
                    && (measured == .delayed || modelled == .delayed)
            }
            if agrees {
                agreeing += 1
            } else if firstDisagreements.count < 10 {
                firstDisagreements.append(
                    Disagreement(position: position, live: measured, simulated: modelled, slack: slack[position]))
            }
        }
    }

    /// Whether every request agrees.
    public var isComplete: Bool { agreeing == requests }
}
