import Foundation

/// The most memory the process has held, in megabytes: the kernel's high-water mark of its
/// resident set.
enum PeakMemory {
    static var megabytes: Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        // Linux reports kilobytes, macOS bytes.
        #if os(Linux)
            return Double(usage.ru_maxrss) / 1024
        #else
            return Double(usage.ru_maxrss) / 1_048_576
        #endif
    }
}
