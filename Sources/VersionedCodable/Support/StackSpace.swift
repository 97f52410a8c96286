import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// The check needs POSIX threads; on a platform without them (WASI, Windows) it is compiled out
// and parts are always read on the calling thread.
#if canImport(Darwin) || canImport(Glibc) || canImport(Musl)

    /// Keeps a deeply nested document from overflowing the thread's stack.
    ///
    /// Every nested versioned part costs a few hundred bytes of stack more than a plain value of
    /// the same shape, because it passes through the library's frames on the way down. A document
    /// that nests versioned parts as deep as the decoder allows (JSONDecoder stops at 512 levels)
    /// would overflow a 512 KB thread stack, the size of a secondary thread's stack on Apple
    /// platforms, where the plain document fits; so would writing such a value.
    ///
    /// So before a versioned part is read or written, ``enter()`` looks at how much stack the
    /// versioned parts above it on this thread have used. When that is more than a shallow
    /// document needs (``deepAfter``) and the stack left would not hold a document nested to the
    /// decoder's limit below it, even if everything below were plain values, the part is read or
    /// written on a new thread with a large stack (``onFreshStack(_:unavailable:)``) while this
    /// thread waits, and the document goes to the same depth as the plain one. A shallow document
    /// never leaves the calling thread, however little stack the caller left it.
    ///
    /// The depth reached is not asked of the decoder: Foundation's decoders build the coding
    /// path on request, recursively, so asking at every deep level cost time quadratic in the
    /// depth and could itself overflow the stack.
    @usableFromInline
    enum StackSpace {
        /// What the error says when a document needs a fresh stack and none can be had.
        @usableFromInline
        static let noThreadDescription =
            "The document nests deeper than the stack left on this thread holds, and no thread with a "
            + "larger stack could be started to read or write it (the process is out of memory or threads)."

        /// The nesting depth the Foundation decoders allow (JSONDecoder's limit); the property list
        /// readers are held to less by ``PropertyListInputCheck``.
        static let nestingLimit = 512
        /// The stack a plain value takes per level of nesting, as Foundation's JSONDecoder reads it
        /// in a release build (about 900 bytes).
        static let bytesPerLevel = 912
        /// Room for the frames above and between the measured ones: the caller's, the error paths'.
        static let reserve = 8 * 1_024
        /// The stack the versioned parts of one document may use on a thread before the check
        /// looks further: about a dozen nested versioned levels.
        static let deepAfter = 32 * 1_024
        /// The stack of the thread a part continues on: enough for a document nested to the limit,
        /// with every level versioned, in a debug build.
        static let freshStackSize = 8 * 1_024 * 1_024

        /// What a versioned part does about the stack it reads on.
        @usableFromInline
        enum Entry {
            /// The outermost versioned part on this thread: it marks where it starts, and must
            /// call ``leaveOutermost()`` when it is done.
            case outermost
            /// A part inside another on this thread, with stack enough to go on.
            case nested
            /// A part that must be read on a fresh stack.
            case hop
        }

        /// Decides how a part is read or written; see ``StackSpace``.
        @usableFromInline
        @inline(never)
        static func enter() -> Entry {
            guard let keys else {
                return .nested
            }
            var marker: UInt8 = 0
            let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
            guard let outermost = pthread_getspecific(keys.outermost) else {
                pthread_setspecific(keys.outermost, UnsafeMutableRawPointer(bitPattern: here))
                return .outermost
            }
            let start = UInt(bitPattern: outermost)
            guard start > here, start - here > deepAfter, let lowest = lowestStackAddress(keys) else {
                return .nested
            }
            let remaining = here > lowest ? Int(here - lowest) : 0
            return remaining < nestingLimit * bytesPerLevel + reserve ? .hop : .nested
        }

        /// Marks that the outermost versioned part on this thread is done.
        @usableFromInline
        @inline(never)
        static func leaveOutermost() {
            if let keys {
                pthread_setspecific(keys.outermost, nil)
            }
        }

        /// The per-thread values: where the outermost versioned part started, and (where the
        /// thread library is slow to tell) the lowest address of the thread's stack.
        struct Keys {
            let outermost: pthread_key_t
            let lowest: pthread_key_t
        }

        static let keys: Keys? = {
            var outermost = pthread_key_t()
            var lowest = pthread_key_t()
            guard pthread_key_create(&outermost, nil) == 0, pthread_key_create(&lowest, nil) == 0 else {
                return nil
            }
            return Keys(outermost: outermost, lowest: lowest)
        }()

        #if canImport(Darwin)
            static func lowestStackAddress(_ keys: Keys) -> UInt? {
                let thread = pthread_self()
                let top = UInt(bitPattern: pthread_get_stackaddr_np(thread))
                let size = UInt(pthread_get_stacksize_np(thread))
                return top > size ? top - size : nil
            }
        #else
            /// `pthread_getattr_np`, which the C library has but the Swift module of its headers
            /// leaves out (it is a GNU extension), looked up once.
            static let getAttributes: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32)? = {
                guard let symbol = dlsym(nil, "pthread_getattr_np") else {
                    return nil
                }
                return unsafeBitCast(
                    symbol,
                    to: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32).self
                )
            }()

            /// Kept per thread, because asking for it reads the process's memory map on the main
            /// thread.
            static func lowestStackAddress(_ keys: Keys) -> UInt? {
                if let known = pthread_getspecific(keys.lowest) {
                    return UInt(bitPattern: known)
                }
                guard let getAttributes else {
                    return nil
                }
                var attributes = pthread_attr_t()
                guard getAttributes(pthread_self(), &attributes) == 0 else {
                    return nil
                }
                defer { pthread_attr_destroy(&attributes) }
                var address: UnsafeMutableRawPointer?
                var size = 0
                guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else {
                    return nil
                }
                pthread_setspecific(keys.lowest, address)
                return UInt(bitPattern: address)
            }
        #endif

        /// Runs `body` on a new thread with a ``freshStackSize`` stack, waits for it, and returns
        /// what it returned or throws what it threw.
        ///
        /// Task-local values are not visible to `body`, which runs outside the task; decoding
        /// reaches here only for documents nested deeper than the calling thread's stack holds.
        ///
        /// - Parameters:
        ///   - body: The work.
        ///   - unavailable: The error to throw when no such thread can be started (the process is
        ///     out of memory or threads), rather than run `body` on a stack it would overflow.
        @usableFromInline
        static func onFreshStack<Result>(
            _ body: () throws -> Result,
            unavailable: @autoclosure () -> any Error
        ) throws -> Result {
            try withoutActuallyEscaping(body) { body in
                let run = StackHop(body)
                guard let thread = start(run) else {
                    run.discard()
                    throw unavailable()
                }
                pthread_join(thread, nil)
                return try run.outcome()
            }
        }

        /// Starts a thread with a ``freshStackSize`` stack that runs `hop`; `nil` when none can be
        /// started.
        private static func start(_ hop: some StackHopping) -> pthread_t? {
            var attributes = pthread_attr_t()
            guard pthread_attr_init(&attributes) == 0 else {
                return nil
            }
            defer { pthread_attr_destroy(&attributes) }
            guard pthread_attr_setstacksize(&attributes, freshStackSize) == 0 else {
                return nil
            }
            let context = Unmanaged.passRetained(hop as AnyObject).toOpaque()
            #if canImport(Darwin)
                var thread: pthread_t?
                let started = pthread_create(
                    &thread,
                    &attributes,
                    { context in
                        (Unmanaged<AnyObject>.fromOpaque(context).takeRetainedValue() as! any StackHopping).run()
                        return nil
                    },
                    context
                )
            #else
                var thread = pthread_t()
                let started: Int32 = pthread_create(
                    &thread,
                    &attributes,
                    { context in
                        (Unmanaged<AnyObject>.fromOpaque(context!).takeRetainedValue() as! any StackHopping).run()
                        return nil
                    },
                    context
                )
            #endif
            guard started == 0 else {
                Unmanaged<AnyObject>.fromOpaque(context).release()
                return nil
            }
            return thread
        }
    }

    /// What the thread ``StackSpace/onFreshStack(_:unavailable:)`` starts runs, whatever the
    /// result's type.
    private protocol StackHopping: AnyObject {
        func run()
    }

    /// The work of ``StackSpace/onFreshStack(_:unavailable:)`` and its outcome, handed between
    /// the waiting thread and the one that does the work.
    ///
    /// `@unchecked Sendable` because the two threads never touch it at once: the waiting thread
    /// reads the outcome only after joining the working thread.
    private final class StackHop<Result>: StackHopping, @unchecked Sendable {
        private var body: (() throws -> Result)?
        private var result: Swift.Result<Result, any Error>?

        init(_ body: @escaping () throws -> Result) {
            self.body = body
        }

        func run() {
            result = Swift.Result { try body!() }
            // Let go of the closure before the waiting thread continues: it must not outlive the
            // call that lent it.
            body = nil
        }

        func outcome() throws -> Result {
            try result!.get()
        }

        /// Lets go of the closure when no thread could be started to run it.
        func discard() {
            body = nil
        }
    }

#else
    @usableFromInline
    enum StackSpace {
        @usableFromInline
        static let noThreadDescription = "The document nests deeper than the stack holds."

        @usableFromInline
        enum Entry {
            case outermost, nested, hop
        }

        @usableFromInline
        static func enter() -> Entry {
            .nested
        }

        @usableFromInline
        static func leaveOutermost() {}

        @usableFromInline
        static func onFreshStack<Result>(
            _ body: () throws -> Result,
            unavailable: @autoclosure () -> any Error
        ) throws -> Result {
            try body()
        }
    }
#endif

extension StackSpace {
    /// The error a decode throws when a document needs a fresh stack and no thread can be
    /// started to give it one.
    @usableFromInline
    static func noThreadError(codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: noThreadDescription))
    }
}
