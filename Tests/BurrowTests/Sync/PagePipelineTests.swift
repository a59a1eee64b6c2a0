import Foundation
import Synchronization
import Testing

/// A download fetches its next page while it applies the one before: in order, overlapping,
/// and with nothing fetching once it returns or throws.
@Suite struct PagePipelineTests {
    struct Stop: Error, Equatable { let page: Int }

    /// What the fetching side did, read by the applying side.
    final class FetchLog: Sendable {
        let fetched = Mutex(0)
        let fetching = Mutex(false)
        let started = DispatchSemaphore(value: 0)

        /// Fetches page `fetched` of `count`, taking `delay` seconds; throws `Stop` at `failing`.
        func fetch(count: Int, failing: Int? = nil, delay: Double = 0) throws -> Int? {
            fetching.withLock { $0 = true }
            defer { fetching.withLock { $0 = false } }
            let page = fetched.withLock { $0 }
            started.signal()
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            if page == failing { throw Stop(page: page) }
            guard page < count else { return nil }
            fetched.withLock { $0 += 1 }
            return page
        }
    }

    @Test func everyPageIsAppliedInOrderWhileTheNextIsFetched() throws {
        let log = FetchLog()
        var applied: [Int] = []
        var overlapped: [Bool] = []
        try Internals.pipelinePages(fetch: { try log.fetch(count: 6) }, apply: { page in
            _ = log.started.wait(timeout: .now())  // this page's own fetch
            // The next page's fetch starts before this page is applied.
            overlapped.append(log.started.wait(timeout: .now() + 5) == .success)
            applied.append(page)
            log.started.signal()
        })
        #expect(applied == Array(0..<6))
        #expect(overlapped == Array(repeating: true, count: 6))
    }

    @Test func nothingIsFetchedOrAppliedWhenThereIsNoPage() throws {
        let log = FetchLog()
        var applied = 0
        try Internals.pipelinePages(fetch: { try log.fetch(count: 0) }, apply: { _ in applied += 1 })
        #expect(applied == 0)
    }

    @Test func aPageThatFailsToApplyStopsThePipelineOnceItsFetchHasEnded() {
        let log = FetchLog()
        var applied: [Int] = []
        #expect(throws: Stop(page: 2)) {
            try Internals.pipelinePages(fetch: { try log.fetch(count: 100, delay: 0.05) }, apply: { page in
                if page == 2 { throw Stop(page: 2) }
                applied.append(page)
            })
        }
        #expect(applied == [0, 1])
        // The fetch of page 3 had started; it ended before the error came back, and no other began.
        #expect(!log.fetching.withLock { $0 })
        #expect(log.fetched.withLock { $0 } == 4)
    }

    @Test func aFetchThatFailsEndsThePipelineAfterThePagesBeforeIt() {
        let log = FetchLog()
        var applied: [Int] = []
        #expect(throws: Stop(page: 3)) {
            try Internals.pipelinePages(fetch: { try log.fetch(count: 100, failing: 3) }, apply: { applied.append($0) })
        }
        #expect(applied == [0, 1, 2])
        #expect(!log.fetching.withLock { $0 })
    }
}
