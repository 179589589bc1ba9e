import Foundation

/// A counter.
public final class Counter {
    private var count = 0

    /// Adds one.
    @discardableResult
    public func increment() -> Int {
        count += 1
        return count
    }

    public func get() -> Int {
        count
    }
}

func main() {
    print(Counter().get())
}
