import CacheLab
import ClientModel
import Testing

@testable import RecipeClient

@Suite("Retry policy")
struct RetryPolicyTests {
    private func delays(_ policy: RetryPolicy, count: Int) -> [Duration] {
        var random = SplitMix64(seed: policy.seed)
        return (1...count).map { policy.delay(beforeRetry: $0, using: &random) }
    }

    @Test func delaysDoubleUpToTheCap() {
        let policy = RetryPolicy(baseDelay: .milliseconds(500), maxDelay: .seconds(2), jitter: 0)

        #expect(
            delays(policy, count: 6) == [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(2), .seconds(2), .seconds(2),
            ])
        var random = SplitMix64(seed: 1)
        #expect(policy.delay(beforeRetry: 500, using: &random) == .seconds(2))
    }

    @Test func jitterStaysInItsBandAndRepeatsForTheSameSeed() {
        let policy = RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(1), jitter: 0.2, seed: 42)

        let first = delays(policy, count: 100)

        #expect(first.allSatisfy { (Duration.milliseconds(800)...Duration.milliseconds(1200)).contains($0) })
        #expect(Set(first.map(\.components.attoseconds)).count > 50)
        #expect(delays(policy, count: 100) == first)
        #expect(delays(RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(1), seed: 43), count: 100) != first)
    }

    @Test(
        arguments: [
            (RecipeServiceError.transport(.timedOut), true),
            (.transport(.notConnectedToInternet), true),
            (.transport(.cancelled), false),
            (.httpStatus(500), true),
            (.httpStatus(503), true),
            (.httpStatus(404), false),
            (.httpStatus(429), false),
            (.malformedPayload(detail: "x"), false),
            (.emptyBody, false),
        ]
    )
    func retriesOnlyTransportFailuresAndServerErrors(_ error: RecipeServiceError, _ retryable: Bool) {
        #expect(error.isRetryable == retryable)
    }
}
