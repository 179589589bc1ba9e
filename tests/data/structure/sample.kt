package demo

import kotlin.math.max

/** A counter. */
@Suppress("unused")
class Counter(private var count: Int) {
    /** Adds one. */
    @JvmName("inc")
    fun increment() {
        count = max(count, 0) + 1
    }

    fun get(): Int = count
}

fun main() {
    println(Counter(1).get())
}
