#include <vector>

namespace geo {

// Largest of two.
template <typename T>
T max_of(T a, T b) {
    return a > b ? a : b;
}

class Shape {
public:
    virtual double area() const = 0;

    void describe() const {
        print(area());
    }
};

}  // namespace geo
