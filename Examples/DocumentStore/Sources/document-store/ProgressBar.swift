import Foundation
import VersionedCodableStore

/// Draws an upgrade's progress on standard error: one line redrawn in place on a terminal, a
/// line per tenth of the run otherwise, so that a log stays short.
final class ProgressBar: @unchecked Sendable {
    // `@unchecked` because the lock guards the mutable properties; the callback may be called
    // from any task.
    private let lock = NSLock()
    private var lastTenth = -1
    private var lineOpen = false
    private let isTerminal = isatty(STDERR_FILENO) != 0

    func show(_ progress: UpgradeProgress) {
        let line = progress.description
        lock.withLock {
            if isTerminal {
                FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
                lineOpen = progress.remaining != 0
                if !lineOpen {
                    FileHandle.standardError.write(Data("\n".utf8))
                }
            } else {
                let tenth = progress.fractionDone.map { Int($0 * 10) } ?? progress.done
                if tenth != lastTenth {
                    lastTenth = tenth
                    FileHandle.standardError.write(Data("\(line)\n".utf8))
                }
            }
        }
    }

    /// Ends a line left open by a run that stopped before its last report.
    func end() {
        lock.withLock {
            if lineOpen {
                FileHandle.standardError.write(Data("\n".utf8))
                lineOpen = false
            }
        }
    }
}
