// How an API version's merge grows with the document: an old client's edit of one element of
// a 5,000-element array beside two elements that swapped places, against the same edit of a
// 50,000-element array. The merge must stay about linear: the larger one within 12 times the
// smaller one's time. Exits with status 1 when it is not.
//
//     swift run -c release --package-path Benchmarks merge-scaling
//
// Each size is merged several times and the fastest run counts: on a shared machine the
// fastest is the one least disturbed by others.

import BenchmarkDocuments
import Foundation

func fastest(count: Int, runs: Int) throws -> Double {
    let stored = TaskBoardMerge.stored(count: count)
    let body = TaskBoardMerge.editBody(count: count)
    var best = Double.infinity
    for _ in 0..<runs {
        let start = ContinuousClock.now
        try TaskBoardMerge.merge(body, into: stored)
        let elapsed = ContinuousClock.now - start
        best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    return best
}

// Another process can only slow a run down, and the larger merge, which touches more memory,
// more so: a ratio above the limit is measured again, up to three times, before it counts.
let limit = 12.0
var ratio = Double.infinity
for attempt in 1...3 where ratio > limit {
    let small = try fastest(count: 5_000, runs: 15)
    let large = try fastest(count: 50_000, runs: 5)
    ratio = large / small
    print(
        String(
            format: "merge of a one-element edit: 5,000 elements %.1f ms, 50,000 elements %.1f ms, %.1fx for 10x "
                + "(limit %.0fx, attempt %d)",
            small * 1_000,
            large * 1_000,
            ratio,
            limit,
            attempt
        )
    )
}
if ratio > limit {
    print("The merge grew faster than the document.")
    exit(1)
}
