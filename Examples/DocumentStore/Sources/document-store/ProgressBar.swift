import Foundation
import VersionedCodableStore

/// Draws an upgrade's progress on standard error: one line redrawn in place on a terminal, a
/// line per tenth of the run otherwise, so that a log stays short.
final class ProgressBar: @unchecked Sendable {
    // `@unchecked` because the lock guards the one mutable property; the callback may be
    // called from any task.
    private let lock = NSLock()
    private var lastTenth = -1
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private let width = 30

    func show(_ progress: UpgradeProgress) {
        let fraction = progress.fractionDone
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let left = progress.estimatedSecondsLeft.map { String(format: "%.0f s left", $0) } ?? "time left unknown"
        let line = String(
            format: "[%@] %3.0f%%  %d/%d  upgraded %d  conflicts %d  %.0f documents/s  %@",
            bar,
            fraction * 100,
            progress.done,
            progress.done + progress.remaining,
            progress.upgraded,
            progress.conflictsRetried,
            progress.documentsPerSecond,
            left
        )
        lock.withLock {
            if isTerminal {
                FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
                if progress.remaining == 0 {
                    FileHandle.standardError.write(Data("\n".utf8))
                }
            } else {
                let tenth = Int(fraction * 10)
                if tenth != lastTenth {
                    lastTenth = tenth
                    FileHandle.standardError.write(Data("\(line)\n".utf8))
                }
            }
        }
    }
}
