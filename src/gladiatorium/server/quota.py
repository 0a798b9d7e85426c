"""How many matches an account may create: a rate per account (the ``limits`` library,
a moving window kept in this process's memory)."""

from __future__ import annotations

import math
import threading
import time

from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from gladiatorium.server.errors import TooMany, Unauthorized


class CreationQuota:
    """Creating a match needs an account and room under ``rate`` (e.g. ``10/minute``:
    a burst of ten, then ten a minute); every admitted request counts."""

    def __init__(self, rate: str) -> None:
        self.items = parse_many(rate)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self._guard = threading.Lock()

    def admit(self, user_id: int | None) -> None:
        """Count one creation for ``user_id``, or refuse: 401 without an account, 429
        (with the seconds to wait) over the rate."""
        if user_id is None:
            raise Unauthorized("log in to create a match: creating matches needs an account")
        key = str(user_id)
        with self._guard:
            for item in self.items:
                if not self.limiter.test(item, "create", key):
                    reset = self.limiter.get_window_stats(item, "create", key).reset_time
                    wait = max(1, math.ceil(reset - time.time()))
                    raise TooMany(
                        f"too many matches created: at most {item.amount} per "
                        f"{period_words(item.get_expiry())} per account; try again in {wait} s",
                        wait,
                    )
            for item in self.items:
                self.limiter.hit(item, "create", key)


def period_words(seconds: int) -> str:
    for name, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds % size == 0:
            count = seconds // size
            return name if count == 1 else f"{count} {name}s"
    return f"{seconds} seconds"
