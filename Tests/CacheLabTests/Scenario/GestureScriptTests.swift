import Testing

@testable import CacheLab

@Suite("Gesture scripts: the same gestures for the browser and the list model")
struct GestureScriptTests {
    @Test func aScriptReadsEveryGestureAndItsComments() throws {
        let script = try GestureScript(
            parsing: """
                # a session
                load
                read 1100 110   # ten rows
                fling -2500
                wait 1.5
                top
                open 2
                reload
                """)
        #expect(
            script.gestures == [
                .load, .read(points: 1_100, speed: 110), .fling(velocity: -2_500), .wait(seconds: 1.5), .top,
                .open(row: 2), .reload,
            ])
    }

    @Test(arguments: [
        ("load\nread 100", 2), ("load\nfling fast", 2), ("load\nopen 1.5", 2), ("read 10 10", 1),
        ("load\njump", 2), ("load\nwait -1", 2), ("load\ntop 3", 2),
    ])
    func aLineThatIsNotAGestureIsNamed(text: String, line: Int) {
        #expect {
            _ = try GestureScript(parsing: text, file: "s.gestures")
        } throws: { error in
            guard case .malformedLine(let file, let at, _) = error as? TraceError else { return false }
            return file == "s.gestures" && at == line
        }
    }

    static let session = try! GestureScript(
        parsing: "load\nread 1100 110\nfling 2500\nfling -2500\ntop\nopen 1\nreload")

    @Test func aWebPageAsksForEachPhotoOncePerLoadWhereALazyStackAsksOnEveryAppearance() {
        var scenario = ScrollScenario.named("daily-reader")!
        scenario.device = .browser
        scenario.list = .webPage
        let page = scenario.makeTrace(performing: Self.session)
        scenario.list = .lazyStack
        let stack = scenario.makeTrace(performing: Self.session)

        // The page's first load asks for the 18 rows within 1,250 px of a 700 px viewport
        #expect(page.times.prefix(18).allSatisfy { $0 == 0 } && page.times[18] > 0)
        // Scrolling back up and to the top asks the page for nothing; the stack asks again
        #expect(stack.count > page.count)
        #expect(Set(stack.keys) == Set(page.keys))
        // The reload is a relaunch, after which the page asks for the top rows again
        #expect(page.events.map(\.kind) == [.relaunch])
        let reload = page.events[0].position
        #expect(Array(page.keys[reload..<reload + 18]) == Array(page.keys[0..<18]))
        // and the opened recipe's large photo is asked for once
        let names = page.keyNames!
        #expect(page.keys.filter { names[Int($0)].hasSuffix("/large.jpg") }.count == 1)
    }

    @Test func theSameScriptGivesTheSameTrace() {
        let scenario = ScrollScenario.named("daily-reader")!
        #expect(scenario.makeTrace(performing: Self.session) == scenario.makeTrace(performing: Self.session))
    }
}
