package demo;

import java.util.List;

/** A service. */
@Service
public class A {
    private int count;

    /** Runs. */
    @Override
    public void run() {
        count++;
    }

    public int get() {
        return count;
    }
}
