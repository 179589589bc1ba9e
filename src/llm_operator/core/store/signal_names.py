"""The name of the signal that ended a command, for any signal number.

Invariant: never raises. ``signal.Signals`` names only the signals Python knows; a
command may end by any other (a real-time signal such as 40, sent to itself), and its
result must still say how it ended rather than fail as an internal error after it ran.
"""

from __future__ import annotations

import signal


def signal_name(number: int) -> str:
    """``SIGTERM`` for 15; ``SIGRTMIN+6`` for a real-time signal; ``signal 99`` else."""
    try:
        return signal.Signals(number).name
    except ValueError:
        pass
    low = getattr(signal, "SIGRTMIN", None)
    high = getattr(signal, "SIGRTMAX", None)
    if low is not None and high is not None and int(low) < number < int(high):
        return f"SIGRTMIN+{number - int(low)}"
    return f"signal {number}"
