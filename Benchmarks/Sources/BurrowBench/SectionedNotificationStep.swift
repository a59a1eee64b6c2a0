import Burrow
import Foundation

/// What observing sectioned results costs beside observing the same results unsectioned: on
/// one file of N items, an observer on a queue of the items sorted by age, and one of the items
/// sectioned by age (the same order, a section per age), each alone, then commits that change
/// one item: its score (a modification in place) or its age (a move to another section). The
/// latency is from the moment `commitWrite` returns to the moment the block starts; median of
/// ``samples`` commits of each kind for each observer, the two observers taking turns.
enum SectionedNotificationStep {
    static let samples = 9

    struct Measurement {
        /// Median latencies in seconds, by observer ("results", "sections") and commit kind.
        var modify: [String: Double] = [:]
        var move: [String: Double] = [:]
        /// The seconds the sectioned observer's first notification took (every key computed).
        var initialSections = 0.0
        var sectionCount = 0
    }

    static func measure(count: Int, in directory: URL) throws -> Measurement {
        let configuration = try NotificationStep.freshConfiguration("notify-sections.realm", in: directory)
        defer { try? Realm.deleteFiles(for: configuration) }
        let realm = try Realm(configuration: configuration)
        try realm.write { for id in 1...count { realm.add(Item(workloadID: id)) } }
        var latencies: [String: (modify: [Double], move: [Double])] = ["results": ([], []), "sections": ([], [])]
        var measurement = Measurement()
        let sectionCount = Locked(0)
        var sample = 0
        for round in 0..<samples {
            for kind in round % 2 == 0 ? ["results", "sections"] : ["sections", "results"] {
                let delivered = DispatchSemaphore(value: 0)
                let arrival = Locked(0.0)
                let queue = DispatchQueue(label: "sections observer")
                let items = realm.objects(Item.self)
                let started = NotificationStep.now()
                let token: NotificationToken
                if kind == "results" {
                    token = items.sorted(byKeyPath: "age").observe(on: queue) { _ in
                        arrival.set(NotificationStep.now())
                        delivered.signal()
                    }
                } else {
                    token = items.sectioned(by: \.age).observe(on: queue) { change in
                        if case .initial(let sections) = change { sectionCount.set(sections.count) }
                        arrival.set(NotificationStep.now())
                        delivered.signal()
                    }
                }
                try NotificationStep.wait(delivered)
                if kind == "sections", round == 0 { measurement.initialSections = arrival.get() - started }
                sample += 1
                let item = realm.object(ofType: Item.self, forPrimaryKey: Int64(1 + (sample * 7919) % count))!
                try realm.write { item.score += 1 }
                var committed = NotificationStep.now()
                try NotificationStep.wait(delivered)
                latencies[kind]!.modify.append(max(0, arrival.get() - committed))
                try realm.write { item.age += 1 }
                committed = NotificationStep.now()
                try NotificationStep.wait(delivered)
                latencies[kind]!.move.append(max(0, arrival.get() - committed))
                token.invalidate()
                queue.sync {}
            }
        }
        measurement.sectionCount = sectionCount.get()
        for (kind, values) in latencies {
            measurement.modify[kind] = median(values.modify)
            measurement.move[kind] = median(values.move)
        }
        return measurement
    }

    private static func median(_ values: [Double]) -> Double {
        values.isEmpty ? .nan : values.sorted()[values.count / 2]
    }

    static func summary(_ m: Measurement, count: Int) -> String {
        let ratio = { (values: [String: Double]) in values["sections", default: .nan] / values["results", default: .nan] }
        return [
            String(format: "Commit to notification, %d items sorted by age vs sectioned by age (%d sections), one item changed, median of %d:",
                   count, m.sectionCount, samples),
            String(format: "  score changed in place: results %.2f ms, sections %.2f ms (%.2fx)",
                   m.modify["results", default: .nan] * 1e3, m.modify["sections", default: .nan] * 1e3, ratio(m.modify)),
            String(format: "  age changed (a move to another section): results %.2f ms, sections %.2f ms (%.2fx)",
                   m.move["results", default: .nan] * 1e3, m.move["sections", default: .nan] * 1e3, ratio(m.move)),
            String(format: "  first notification of the sections (every key computed): %.2f s", m.initialSections),
        ].joined(separator: "\n")
    }
}
