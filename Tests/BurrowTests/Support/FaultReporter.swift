import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Says on standard error where a SIGSEGV or SIGBUS happened (the frames of the faulting
/// thread, each with its library), then lets the signal end the process as it would have: so
/// that a test can tell a fault in LMDB's code from one in Burrow's. The handler allocates
/// nothing, as it may run in the middle of `malloc`.
enum FaultReporter {
    static func install() {
        // The first call loads the unwinder, which allocates: done here, not in the handler.
        var frames = [UnsafeMutableRawPointer?](repeating: nil, count: 4)
        _ = glibcBacktrace(&frames, 4)
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { signal, _, _ in
            let text: StaticString = "\nfault: the frames of the faulting thread:\n"
            _ = write(2, text.utf8Start, text.utf8CodeUnitCount)
            withUnsafeTemporaryAllocation(of: UnsafeMutableRawPointer?.self, capacity: 64) { frames in
                let count = glibcBacktrace(frames.baseAddress!, 64)
                glibcBacktraceSymbols(frames.baseAddress!, count, 2)
            }
            Glibc.signal(signal, SIG_DFL)
            raise(signal)
        }
        action.sa_flags = SA_SIGINFO
        sigaction(SIGSEGV, &action, nil)
        sigaction(SIGBUS, &action, nil)
    }

    /// Whether the fault described in `errors` happened in LMDB's code: the first frame past
    /// the handler and the C library (whose `memcpy` a caller may have sent astray) is LMDB's.
    static func faultIsInLMDB(_ errors: String) -> Bool {
        let lines = errors.split(separator: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("fault: ") }) else { return false }
        let frames = lines[(start + 1)...].filter { $0.contains("[0x") }
        // Frame 0 is the handler, then the kernel's return to it in the C library.
        guard let trampoline = frames.firstIndex(where: { $0.contains("libc.so") }) else { return false }
        let culprit = frames[(trampoline + 1)...].first { !$0.contains("libc.so") }
        return culprit?.contains("liblmdb") ?? false
    }
}

/// glibc's `backtrace` and `backtrace_symbols_fd` (execinfo.h), which the C library module does not import.
@_silgen_name("backtrace")
private func glibcBacktrace(_ buffer: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ size: Int32) -> Int32
@_silgen_name("backtrace_symbols_fd")
private func glibcBacktraceSymbols(_ buffer: UnsafePointer<UnsafeMutableRawPointer?>, _ size: Int32, _ fd: Int32)
