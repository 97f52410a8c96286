/// Working memory for a walk that runs on every decode of a binary property list, kept per
/// thread (in its ``PerThreadMemory``) so that the walk allocates nothing once a thread has
/// walked a document of common size.
///
/// No user code runs while the memory is lent, so a thread never lends it twice at once.
enum ThreadScratch {
    /// Calls `body` with `count` words of memory that it may use until it returns.
    static func withWords<Result>(_ count: Int, _ body: (UnsafeMutableBufferPointer<Int>) -> Result) -> Result {
        if count <= PerThreadMemory.scratchWords, let kept = PerThreadMemory.scratch() {
            return body(UnsafeMutableBufferPointer(start: kept, count: count))
        }
        let memory = UnsafeMutableBufferPointer<Int>.allocate(capacity: count)
        defer { memory.deallocate() }
        return body(memory)
    }
}
