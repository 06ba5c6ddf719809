"""A per-client limit on making games (docs/web.md, "Security"): a server on the open
internet must not let one client fill its database.

Every request that makes a game -- ``POST /api/games``, ``POST /api/games/import``, the
new-game form ``POST /new`` and the import form ``POST /import`` (``LIMITED``) -- takes one
token from its client's bucket first, whether it then succeeds or is refused.  A bucket holds
at most ``RateLimit.burst`` tokens and gains ``burst`` tokens every ``period`` seconds
(continuously); an empty bucket answers ``429 Too Many Requests`` with ``Retry-After`` (whole
seconds until the next token) and nothing is read or made.  Playing (actions, pages, feeds)
is not limited here.

The client is the request's remote address as the ASGI server reports it (uvicorn takes it
from ``X-Forwarded-For`` only for the proxies ``--forwarded-allow-ips`` trusts); an IPv6
address counts by its /64 network, since one machine commonly holds a whole /64.  Buckets
are per process: behind a balancer spreading one client over N processes it gets up to N
times the limit.  The buckets kept are bounded (``MAX_CLIENTS``): full ones are forgotten
first (a new bucket is full anyway), then the longest unused.
"""

from __future__ import annotations

import ipaddress
import json
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from stellwerk.web.security import ASGIApp, Receive, Scope, Send

LIMITED = frozenset(
    {
        ("POST", "/api/games"),
        ("POST", "/api/games/import"),
        ("POST", "/new"),
        ("POST", "/import"),
    }
)
"""(method, path) of the requests that make a game."""

MAX_CLIENTS = 10_000
"""Most buckets kept at once."""


@dataclass(frozen=True)
class RateLimit:
    """``burst`` games at once, and ``burst`` more every ``period`` seconds."""

    burst: int
    period: float

    def __post_init__(self) -> None:
        if self.burst < 1 or not self.period > 0:
            raise ValueError("a rate limit needs at least 1 game in a positive period")

    @property
    def rate(self) -> float:
        """Tokens gained per second."""
        return self.burst / self.period

    @classmethod
    def parse(cls, text: str) -> RateLimit | None:
        """``"N/SECONDS"`` (e.g. ``"20/600"``: 20 at once, 20 more every 10 minutes), or
        ``"off"`` for no limit (None); ``ValueError`` for anything else."""
        if text.strip().lower() == "off":
            return None
        count, slash, seconds = text.partition("/")
        if not slash:
            raise ValueError(f"a rate limit is N/SECONDS or off, not {text!r}")
        try:
            return cls(int(count), float(seconds))
        except ValueError as error:
            raise ValueError(f"a rate limit is N/SECONDS or off, not {text!r}") from error

    def __str__(self) -> str:
        return f"{self.burst}/{self.period:g}"


DEFAULT = RateLimit(20, 600.0)
"""20 games at once per client, then one every 30 seconds."""


class Buckets:
    """Token buckets by client (module docstring); ``clock`` in seconds (monotonic)."""

    def __init__(
        self,
        limit: RateLimit,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = MAX_CLIENTS,
    ) -> None:
        self.limit = limit
        self.clock = clock
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        """client -> (tokens, when counted), the least recently used first."""

    def _level(self, tokens: float, stamp: float, now: float) -> float:
        return min(float(self.limit.burst), tokens + (now - stamp) * self.limit.rate)

    def take(self, client: str) -> float:
        """Take a token of ``client``'s bucket: 0.0 when there was one, else the seconds
        until there is (nothing taken)."""
        now = self.clock()
        tokens, stamp = self._buckets.pop(client, (float(self.limit.burst), now))
        tokens = self._level(tokens, stamp, now)
        if tokens >= 1.0:
            wait, tokens = 0.0, tokens - 1.0
        else:
            wait = (1.0 - tokens) / self.limit.rate
        self._buckets[client] = (tokens, now)
        if len(self._buckets) > self.max_clients:
            self._forget(now)
        return wait

    def _forget(self, now: float) -> None:
        """Drop the full buckets, then the least recently used, down to ``max_clients``."""
        full = [
            client
            for client, (tokens, stamp) in self._buckets.items()
            if self._level(tokens, stamp, now) >= self.limit.burst
        ]
        for client in full:
            del self._buckets[client]
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)

    def __len__(self) -> int:
        return len(self._buckets)


def client_of(scope: Scope) -> str:
    """The client a request counts for: its remote address, an IPv6 one by its /64."""
    client = scope.get("client")
    host = str(client[0]) if client else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class CreateLimit:
    """ASGI middleware: the requests of ``LIMITED`` take a token of their client's bucket
    first, or are answered 429 with ``Retry-After`` (module docstring)."""

    def __init__(self, app: ASGIApp, buckets: Buckets) -> None:
        self.app = app
        self.buckets = buckets

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and (scope.get("method"), scope.get("path")) in LIMITED:
            wait = self.buckets.take(client_of(scope))
            if wait > 0:
                await _too_many(scope, send, math.ceil(wait))
                return
        await self.app(scope, receive, send)


async def _too_many(scope: Scope, send: Send, retry_after: int) -> None:
    sentence = f"too many new games from your address; try again in {retry_after} s"
    if str(scope.get("path", "")).startswith("/api/"):
        body = json.dumps({"error": sentence, "retry_after": retry_after}).encode()
        kind = b"application/json"
    else:
        body = sentence.encode()
        kind = b"text/plain; charset=utf-8"
    await send(
        {
            "type": "http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", kind),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(retry_after).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
