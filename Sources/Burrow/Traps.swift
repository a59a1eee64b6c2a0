// Burrow's traps keep their message in every build.
//
// The standard library's `precondition` and `preconditionFailure` drop their message in
// optimized builds ("precondition failure" is all that is printed), yet the message is the
// whole point of a trap: "Realm accessed from incorrect thread.", or the damage a read met.
// These two shadow them inside this module with the same signatures, stopping through
// `fatalError`, which prints its message whatever the optimization.

/// Stops the program with `message` when `condition` is false, in every build.
@inline(__always) @usableFromInline
func precondition(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String = String(),
                  file: StaticString = #file, line: UInt = #line) {
    if _slowPath(!condition()) { fatalError(message(), file: file, line: line) }
}

/// Stops the program with `message`, in every build.
@inline(never) @usableFromInline
func preconditionFailure(_ message: @autoclosure () -> String = String(), file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError(message(), file: file, line: line)
}
