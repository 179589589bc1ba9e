use std::fmt;

/// A foo.
#[derive(Debug)]
struct Foo {
    a: i32,
}

impl Foo {
    /// Bar doc.
    #[inline]
    fn bar(&self) -> i32 {
        self.a
    }

    fn baz(&self) {}
}

fn main() {
    let f = Foo { a: 1 };
    println!("{}", f.bar());
}
