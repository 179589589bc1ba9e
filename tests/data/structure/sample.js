import x from "y";

/** Adds numbers. */
function add(a, b) {
  return a + b;
}

class Counter {
  constructor() {
    this.n = 0;
  }

  increment() {
    this.n += 1;
  }
}

describe("counter", () => {
  it("counts", () => {
    expect(1).toBe(1);
  });
});
