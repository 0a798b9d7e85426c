"""Fixtures of the server tests: a database per backend (SQLite file, throwaway
PostgreSQL cluster), the app in a TestClient, and real ``gladiatorium serve`` processes."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from mail_helpers import SmtpServer
from server_helpers import LiveServer, free_port, server_env, settings_for

from gladiatorium.server import accounts
from gladiatorium.server.app import create_app
from gladiatorium.server.db import make_engine, migrate

TEMPLATE = "gladiatorium_template"


@pytest.fixture(autouse=True, scope="session")
def cheap_password_hashes() -> Iterator[None]:
    """In-process servers hash passwords with small argon2 costs (the suite registers
    many accounts on two cores); ``gladiatorium serve`` processes keep the real ones."""
    real = accounts._hasher
    accounts._hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    yield
    accounts._hasher = real


# ----- PostgreSQL -------------------------------------------------------------------------
@dataclass
class PostgresCluster:
    port: int
    folder: Path
    bin: Path
    count: int = 0
    names: list[str] = field(default_factory=list)

    def url(self, name: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"

    def execute(self, sql: str) -> None:
        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True
        ) as conn:
            conn.execute(sql)  # type: ignore[arg-type]

    def new_database(self, empty: bool = False) -> str:
        """A fresh database, copied from a template that holds the migrated schema
        (the server still runs its migrations on start: a no-op then); ``empty``: a
        database with no table at all."""
        if empty:
            self.count += 1
            name = f"empty_{os.getpid()}_{self.count}"
            self.execute(f'CREATE DATABASE "{name}"')
            return self.url(name)
        if not self.names:
            self.execute(f'CREATE DATABASE "{TEMPLATE}"')
            engine = make_engine(self.url(TEMPLATE))
            migrate(engine)
            engine.dispose()
            self.names.append(TEMPLATE)
        self.count += 1
        name = f"test_{os.getpid()}_{self.count}"
        self.execute(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}" STRATEGY FILE_COPY')
        self.names.append(name)
        return self.url(name)


def _postgres_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        pytest.fail(
            "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run "
            "scripts/system-packages (make test does) to install Debian's postgresql package",
            pytrace=False,
        )
    return Path(found[-1]).parent


def _as_postgres(*args: str) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *args]
    return list(args)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """One throwaway cluster for the whole session, on a loopback port."""
    bin_dir = _postgres_bin()
    folder = Path(tempfile.mkdtemp(prefix="gladiatorium-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    data, sockets = folder / "data", folder / "sockets"
    port = free_port()
    try:
        subprocess.run(
            _as_postgres("mkdir", "-p", str(sockets)),
            check=True,
        )
        subprocess.run(
            _as_postgres(
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "--no-sync",
                "-E",
                "UTF8",
            ),
            check=True,
            capture_output=True,
        )
        options = (
            f"-c listen_addresses=127.0.0.1 -p {port} -c unix_socket_directories={sockets} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c max_connections=300"
        )
        subprocess.run(
            _as_postgres(
                str(bin_dir / "pg_ctl"),
                "-D",
                str(data),
                "-o",
                options,
                "-l",
                str(folder / "log"),
                "-w",
                "-t",
                "60",
                "start",
            ),
            check=True,
            capture_output=True,
        )
    except subprocess.CalledProcessError as err:
        log = (folder / "log").read_text() if (folder / "log").exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        pytest.fail(
            f"could not start a PostgreSQL cluster: {err}\n{err.stderr!r}\n{log}", pytrace=False
        )
    try:
        yield PostgresCluster(port, folder, bin_dir)
    finally:
        subprocess.run(
            _as_postgres(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"),
            capture_output=True,
        )
        shutil.rmtree(folder, ignore_errors=True)


# ----- SQLite -----------------------------------------------------------------------------
@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file holding the migrated schema, made once per worker: a test's database
    is a copy of it, as PostgreSQL's are copied from a template database (the server still
    runs its migrations on start: a no-op then)."""
    path = tmp_path_factory.mktemp("sqlite-template") / "template.db"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    engine.dispose()  # the last connection closed: the write-ahead log is in the file
    assert not path.with_name(path.name + "-wal").exists()
    return path


def sqlite_database(template: Path, path: Path) -> str:
    """The URL of a fresh database at ``path``, a copy of the migrated ``template``."""
    shutil.copyfile(template, path)
    return f"sqlite:///{path}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database on each backend, its schema migrated, no row in it."""
    if request.param == "sqlite":
        template: Path = request.getfixturevalue("sqlite_template")
        return sqlite_database(template, tmp_path / "gladiatorium.db")
    cluster: PostgresCluster = request.getfixturevalue("postgres_cluster")
    return cluster.new_database()


@pytest.fixture
def postgres_url(postgres_cluster: PostgresCluster) -> str:
    return postgres_cluster.new_database()


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    """The app on ``database_url``, lifespan running (migrations, bots, scheduler)."""
    with TestClient(create_app(settings_for(database_url))) as test_client:
        yield test_client


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    """A factory: ``live_server(url)`` starts ``gladiatorium serve`` on ``url`` and
    waits for /healthz; every server started is killed at the end."""
    started: list[LiveServer] = []

    def start(
        database_url: str,
        wait: bool = True,
        args: tuple[str, ...] = (),
        preloaded: bool = True,
        **env: str,
    ) -> LiveServer:
        environment = server_env(GLADIATORIUM_SCHEDULER_INTERVAL="0.05", **env)
        server = LiveServer(database_url, tmp_path, environment, args=args, preloaded=preloaded)
        started.append(server)
        return server.start(wait)

    yield start
    for server in started:
        server.kill()


@pytest.fixture
def sqlite_client(tmp_path: Path, sqlite_template: Path) -> Iterator[TestClient]:
    """The app on a SQLite file only (tests whose subject does not depend on the backend)."""
    url = sqlite_database(sqlite_template, tmp_path / "one.db")
    with TestClient(create_app(settings_for(url))) as test_client:
        yield test_client


@pytest.fixture
def smtp_server() -> Iterator[SmtpServer]:
    """A real SMTP server (aiosmtpd) on loopback, keeping in memory what it receives."""
    server = SmtpServer()
    server.start()
    yield server
    server.stop()
