"""Sample module."""

import os


# Helper comment.
@decorator
def helper(x):
    return x


class UserAuth:
    """Authenticate users."""

    def __init__(self):
        self.active = True

    @staticmethod
    def validate(self):
        if self.active:
            return True
        return False


def tail():
    pass
