#include <stdio.h>

/* A point. */
struct point {
    int x;
    int y;
};

static int add(int a, int b)
{
    return a + b;
}

int main(void)
{
    if (add(1, 2) > 2) {
        printf("ok\n");
    }
    return 0;
}
