"""Server settings: embedded defaults, overridden by arguments or the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_DATABASE = Path("gladiatorium.db")
#: plies between two snapshots of a match (server/snapshots.py)
SNAPSHOT_EVERY = 200
#: the sender of the server's mail unless --mail-from says otherwise
DEFAULT_MAIL_FROM = "Gladiatorium <noreply@localhost>"


def _env_seconds(name: str, default: float) -> float:
    """A number of seconds from the environment (operators and tests shrink delays)."""
    raw = os.environ.get(name)
    return default if raw in (None, "") else float(raw)


def _env_text(name: str, default: str) -> str:
    raw = os.environ.get(name)
    return default if raw in (None, "") else raw


def _env_int(name: str, default: int) -> int:
    """A whole number from the environment (operators and tests change the limits)."""
    raw = os.environ.get(name)
    return default if raw in (None, "") else int(raw)


def _env_flag(name: str) -> bool:
    """A yes/no switch from the environment: 1, true, yes or on."""
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def _env_origins() -> tuple[str, ...]:
    """``GLADIATORIUM_ALLOWED_ORIGINS``: origins separated by commas."""
    raw = os.environ.get("GLADIATORIUM_ALLOWED_ORIGINS", "")
    return tuple(part.strip().rstrip("/") for part in raw.split(",") if part.strip())


def _env_names(name: str) -> tuple[str, ...]:
    """Names separated by commas, from the environment."""
    return tuple(part.strip() for part in os.environ.get(name, "").split(",") if part.strip())


def default_database_url() -> str:
    """``GLADIATORIUM_DATABASE_URL`` if set, else a SQLite file in the working folder."""
    return os.environ.get("GLADIATORIUM_DATABASE_URL") or f"sqlite:///{DEFAULT_DATABASE}"


@dataclass(frozen=True)
class Settings:
    """Everything a server process needs to know; tests shrink the delays."""

    database_url: str = field(default_factory=default_database_url)
    #: seconds a bot may think about one move before the server plays for it
    bot_think_seconds: float = 5.0
    #: pause before each bot action, so people can follow a match of bots (a match's
    #: ``bot_seconds`` setting overrides it)
    bot_delay_seconds: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_BOT_DELAY", 0.3)
    )
    #: how often the deadline scheduler looks for deadlines that are due
    scheduler_interval: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_SCHEDULER_INTERVAL", 0.5)
    )
    #: largest WebSocket message accepted, in bytes
    ws_max_message: int = 8192
    #: messages a WebSocket connection may send per second (burst of the same size)
    ws_rate: float = 20.0
    #: origins allowed besides the server's own (for a reverse proxy on another name)
    extra_origins: tuple[str, ...] = field(default_factory=_env_origins)
    #: mark session cookies Secure (behind HTTPS)
    secure_cookies: bool = field(default_factory=lambda: _env_flag("GLADIATORIUM_SECURE_COOKIES"))
    #: password hashes (argon2, 64 MiB each) computed at once; logins beyond wait their turn
    hash_concurrency: int = field(
        default_factory=lambda: _env_int("GLADIATORIUM_HASH_CONCURRENCY", 2)
    )
    #: logins and registrations that may wait for a hash; past this they are answered 503
    hash_queue: int = field(default_factory=lambda: _env_int("GLADIATORIUM_HASH_QUEUE", 16))
    #: failed logins allowed per account name, then per client address (moving windows,
    #: in the notation of the ``limits`` library)
    login_account_limit: str = field(
        default_factory=lambda: _env_text("GLADIATORIUM_LOGIN_ACCOUNT_LIMIT", "10/15 minutes")
    )
    login_address_limit: str = field(
        default_factory=lambda: _env_text("GLADIATORIUM_LOGIN_ADDRESS_LIMIT", "30/15 minutes")
    )
    #: a session (cookie or bearer token) unused this many days is over (sliding)
    session_days: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_SESSION_DAYS", 30.0)
    )
    #: how often an open WebSocket looks again whether its session still holds, in seconds
    session_check_seconds: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_SESSION_CHECK", 60.0)
    )
    #: how long an open WebSocket's actions trust its last look at its session, in seconds
    #: (a logout closes the session's sockets at once: in its own process directly, in the
    #: others through PostgreSQL's NOTIFY; while that listener is down every action looks);
    #: 0: every action looks in the database
    session_trust_seconds: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_SESSION_TRUST", 5.0)
    )
    #: the least zxcvbn score (0-4) a new password needs
    password_min_score: int = 2
    #: matches one account may create: a ``limits`` rate ("10/minute"; several joined by
    #: ";"): a burst of that many at once, then that many per period
    match_create_rate: str = field(
        default_factory=lambda: _env_text("GLADIATORIUM_MATCH_RATE", "10/minute")
    )
    #: messages one person may post (talk): a ``limits`` rate, a burst of that many,
    #: then about that many per period ("10/10 seconds": about one a second)
    talk_rate: str = field(
        default_factory=lambda: _env_text("GLADIATORIUM_TALK_RATE", "10/10 seconds")
    )
    #: matches of bots only (no seat for a person) one account may have running at once
    bot_only_matches: int = field(
        default_factory=lambda: _env_int("GLADIATORIUM_BOT_ONLY_MATCHES", 2)
    )
    #: seconds a match stays in memory unused; then it leaves (rebuilt from its record
    #: on the next request, as after a restart)
    match_idle_seconds: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_MATCH_IDLE", 600.0)
    )
    #: plies between two snapshots of a match, from which it comes back to memory
    #: without replaying its whole record (0: no snapshots)
    snapshot_every: int = field(
        default_factory=lambda: _env_int("GLADIATORIUM_SNAPSHOT_EVERY", SNAPSHOT_EVERY)
    )
    #: steps of different matches written together share one transaction (group commit,
    #: server/writer.py); off: each step commits alone, in its own request's thread
    group_commit: bool = field(
        default_factory=lambda: os.environ.get("GLADIATORIUM_GROUP_COMMIT", "1") != "0"
    )
    #: seconds between two full collections of a server process, which otherwise
    #: freezes what it holds every second (server/collector.py); 0: Python's collector
    #: as it comes
    gc_full_seconds: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_GC_FULL", 600.0)
    )
    #: most matches held in memory at once (the least recently used leave first)
    max_live_matches: int = field(
        default_factory=lambda: _env_int("GLADIATORIUM_LIVE_MATCHES", 2000)
    )
    #: the base of the links the server writes (invitations), e.g. https://games.example.org;
    #: its origin is allowed too. None: the address each request came to
    public_url: str | None = field(
        default_factory=lambda: os.environ.get("GLADIATORIUM_PUBLIC_URL") or None
    )
    #: seconds a connection has to send a request's complete headers before it is closed
    header_timeout: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_HEADER_TIMEOUT", 10.0)
    )
    #: seconds an idle keep-alive connection is held between requests
    keep_alive_timeout: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_KEEP_ALIVE_TIMEOUT", 5.0)
    )
    #: open connections (HTTP and WebSocket) in all; more are refused with 503 (0: no cap)
    max_connections: int = field(
        default_factory=lambda: _env_int("GLADIATORIUM_MAX_CONNECTIONS", 2048)
    )
    #: open connections from one client address; more are refused with 429 (0: no cap;
    #: behind a reverse proxy every client has the proxy's address)
    max_connections_per_address: int = field(
        default_factory=lambda: _env_int("GLADIATORIUM_MAX_CONNECTIONS_PER_ADDRESS", 64)
    )
    #: largest request body, in bytes (refused with 413 while it streams in)
    max_body: int = field(default_factory=lambda: _env_int("GLADIATORIUM_MAX_BODY", 256 * 1024))
    #: largest body of the file uploads (library, hero designer import), in bytes
    max_upload_body: int = field(
        default_factory=lambda: _env_int("GLADIATORIUM_MAX_UPLOAD_BODY", 1024 * 1024)
    )

    #: the shortest round deadline a moderator may set, in minutes (tests lower it)
    min_deadline_minutes: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_MIN_DEADLINE_MINUTES", 1.0)
    )

    #: where mail goes out: ``smtp://[USER:PASSWORD@]HOST[:PORT][?starttls=1]`` or
    #: ``smtps://...`` (docs/server.md); None: the server sends no mail at all
    smtp_url: str | None = field(
        default_factory=lambda: os.environ.get("GLADIATORIUM_SMTP_URL") or None
    )
    #: the From of every mail the server sends
    mail_from: str = field(
        default_factory=lambda: _env_text("GLADIATORIUM_MAIL_FROM", DEFAULT_MAIL_FROM)
    )
    #: how often the mail sender looks for mail to write and to send, in seconds
    mail_interval: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_MAIL_INTERVAL", 1.0)
    )
    #: a "your turn" notice waits this long, in seconds, so that the notices of several
    #: matches go out together in one mail
    mail_gather_seconds: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_MAIL_GATHER", 120.0)
    )
    #: a reminder goes out when a deadline of an awaited seat is this near, in minutes
    mail_remind_minutes: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_MAIL_REMIND_MINUTES", 60.0)
    )
    #: the first wait before a mail is tried again after an SMTP error, in seconds
    #: (doubled at each failure, at most an hour)
    mail_retry_seconds: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_MAIL_RETRY", 30.0)
    )
    #: how long a claimed mail belongs to the process sending it, in seconds; a process
    #: killed while sending leaves it to another (or to itself, restarted) after this
    mail_lease_seconds: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_MAIL_LEASE", 120.0)
    )

    #: run heroes' gauntlets in this server (a runner process started by ``serve``)
    gauntlets: bool = field(
        default_factory=lambda: os.environ.get("GLADIATORIUM_GAUNTLETS", "1") != "0"
    )
    #: worker processes a gauntlet's games are played on (1: the runner process itself)
    gauntlet_workers: int = field(
        default_factory=lambda: _env_int("GLADIATORIUM_GAUNTLET_WORKERS", 1)
    )
    #: a Ray cluster (HOST:PORT) that plays gauntlets' games instead; the same results
    gauntlet_ray_address: str | None = field(
        default_factory=lambda: os.environ.get("GLADIATORIUM_GAUNTLET_RAY_ADDRESS") or None
    )
    #: games per pairing of a new gauntlet, by bot (``greedy=10,mcts=1``), and its maps
    #: (comma-separated shipped names; empty: the game's own)
    gauntlet_games: str = field(
        default_factory=lambda: _env_text("GLADIATORIUM_GAUNTLET_GAMES", "greedy=10,mcts=1")
    )
    gauntlet_maps: str = field(default_factory=lambda: _env_text("GLADIATORIUM_GAUNTLET_MAPS", ""))
    #: games played between two progress writes of a running gauntlet
    gauntlet_chunk: int = field(default_factory=lambda: _env_int("GLADIATORIUM_GAUNTLET_CHUNK", 20))
    #: seconds between two heartbeats of a running gauntlet's claim, and the age at which
    #: a claim is stale (its process is taken for dead and the job runs again elsewhere)
    gauntlet_heartbeat_seconds: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_GAUNTLET_HEARTBEAT", 10.0)
    )
    gauntlet_stale_seconds: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_GAUNTLET_STALE", 60.0)
    )
    #: how often an idle runner looks for a gauntlet to run, in seconds
    gauntlet_poll_seconds: float = field(
        default_factory=lambda: _env_seconds("GLADIATORIUM_GAUNTLET_POLL", 2.0)
    )
    #: what one account may publish to the hall (heroes and themes, every version
    #: counts): at most that many per period, counted in the database (every process)
    hall_publish_rate: str = field(
        default_factory=lambda: _env_text("GLADIATORIUM_HALL_RATE", "10/hour")
    )
    #: the accounts (user names) that operate the server: they hide and unhide hall items
    operators: tuple[str, ...] = field(default_factory=lambda: _env_names("GLADIATORIUM_OPERATORS"))

    @property
    def allowed_origins(self) -> tuple[str, ...]:
        """Origins besides the server's own: the extra ones and the public URL's."""
        if not self.public_url:
            return self.extra_origins
        parts = urlsplit(self.public_url)
        return (*self.extra_origins, f"{parts.scheme}://{parts.netloc}")
