import Dispatch

/// Two stages one page apart: while the caller applies a page, the next one is fetched (and
/// parsed) on a thread of its own, so that the server's work and the network overlap the
/// local writes instead of alternating with them.
///
/// `fetch` runs on that thread, one call at a time and never during another; it returns `nil`
/// when there are no more pages. Whatever `fetch` uses (a connection) is left alone by
/// `apply`, and is idle again when ``run(fetch:apply:)`` returns or throws.
enum PagePipeline {
    /// Hands `apply` each page `fetch` returns, in order, fetching the next meanwhile.
    ///
    /// - Throws: the first error of `fetch` or `apply`; no page after it is applied.
    static func run<Page>(fetch: @escaping () throws -> Page?, apply: (Page) throws -> Void) throws {
        let stage = FetchStage(fetch)
        stage.start()
        while let page = try stage.next() {
            stage.start()
            do {
                try apply(page)
            } catch {
                // The fetch under way finishes before the connection is anyone else's.
                _ = try? stage.next()
                throw error
            }
        }
    }

    /// The fetching stage: one fetch at a time, started and then awaited.
    private final class FetchStage<Page>: @unchecked Sendable {
        private let fetch: () throws -> Page?
        private let done = DispatchSemaphore(value: 0)
        private let queue = DispatchQueue(label: "burrow.sync.fetch")
        /// Written by the fetching thread before it signals `done`, read after `done` is waited
        /// on: the semaphore orders the two.
        private var result: Result<Page?, any Error> = .success(nil)

        init(_ fetch: @escaping () throws -> Page?) { self.fetch = fetch }

        /// Starts the next fetch; the one before must have been awaited.
        func start() {
            queue.async { [self] in
                result = Result { try fetch() }
                done.signal()
            }
        }

        /// Waits for the fetch started last and returns its page.
        func next() throws -> Page? {
            done.wait()
            return try result.get()
        }
    }
}
