import Foundation

@testable import RecipeClient

/// A recipe service whose every fetch waits until the test opens the gate, and then answers what
/// the test says (by default the list it was made with).
final class GatedService: RecipeService, @unchecked Sendable {
    typealias Answer = Result<[Recipe], RecipeServiceError>

    private let answer: [Recipe]
    private let lock = NSLock()
    private var waiting: CheckedContinuation<Answer, Never>?
    private var requested: CheckedContinuation<Void, Never>?
    private var requests = 0
    private var seen = 0

    init(answer: [Recipe]) {
        self.answer = answer
    }

    func fetchRecipes() async throws(RecipeServiceError) -> [Recipe] {
        let answer = await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
            lock.lock()
            waiting = continuation
            requests += 1
            let observer = requested
            requested = nil
            lock.unlock()
            observer?.resume()
        }
        return try answer.get()
    }

    /// Returns once a fetch is waiting at the gate.
    func waitForRequest() async {
        await withCheckedContinuation { continuation in
            lock.lock()
            if requests > seen {
                seen = requests
                lock.unlock()
                continuation.resume()
            } else {
                requested = continuation
                seen += 1
                lock.unlock()
            }
        }
    }

    /// Lets the waiting fetch answer with the list this service was made with.
    func open() {
        open(answering: .success(answer))
    }

    /// Lets the waiting fetch answer `answer`.
    func open(answering answer: Answer) {
        lock.lock()
        let continuation = waiting
        waiting = nil
        lock.unlock()
        continuation?.resume(returning: answer)
    }
}
