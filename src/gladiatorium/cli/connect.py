"""``gladiatorium connect URL``: a seat of a match on a Gladiatorium server, played at
the terminal over the documented API (docs/api.md) and the match's WebSocket.

The link is an invitation (``https://HOST/invite/TOKEN``: the seat it gives, to the
account logged in, else to a guest) or a match's page (``https://HOST/matches/ID``, its
``?seat=S`` or ``--seat S``, with a login; an open seat is joined). The picture, the
prompt and the notes on the actions are the game's own terminal presenter's, drawn by
the server for the seat (``GET /api/matches/ID/terminal``); the prompt reads moves and
the commands as ``gladiatorium play`` does (``legal``, ``help``, ``board``, ``rules``,
``quit``) and sends each move (``POST /api/matches/ID/actions``). Between turns it
waits for the socket's pushes. It ends with the result as the server's pages say it.
Every failure is one clear line (:class:`ConnectError`), never a traceback."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import httpx2
from rich.console import Console
from rich.text import Text
from websockets.exceptions import InvalidHandshake, InvalidURI, WebSocketException
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as open_socket

from gladiatorium.cli.terminal import print_help, print_legal, show_board, show_rules, with_note
from gladiatorium.core import Game, GladiatoriumError, get_game

#: how long a call to the server may take, in seconds
TIMEOUT = 30.0
#: how long the client waits for a push before it looks again all the same, in seconds
LOOK_AGAIN = 60.0
#: at most this many of the seat's actions are listed under the board
LISTED = 12


class ConnectError(Exception):
    """Why connecting or playing stopped, in one line for the person."""


class Refused(ConnectError):
    """The server refused a call: its status and its ``error``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Target:
    """What a link names: the server, and a match with a seat or an invitation."""

    base: str
    match: str | None = None
    seat: str | None = None
    invite: str | None = None


def parse_link(url: str, seat: str | None = None) -> Target:
    """The server and the match (and seat) or invitation of ``url``."""
    shape = "give a match's link (http://HOST/matches/ID) or an invitation link (.../invite/TOKEN)"
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError as err:
        raise ConnectError(f"not a link: {url!r} ({err}); {shape}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConnectError(f"not a server link: {url!r}; {shape}")
    base = f"{parts.scheme}://{parts.netloc}"
    path = [p for p in parts.path.split("/") if p]
    if len(path) == 2 and path[0] == "invite":
        return Target(base, invite=path[1])
    if len(path) == 2 and path[0] == "matches":
        asked = parse_qs(parts.query).get("seat", [None])[0]
        return Target(base, match=path[1], seat=seat or asked)
    raise ConnectError(f"not a match or an invitation: {url!r}; {shape}")


def legal_of(body: dict[str, Any]) -> list[str]:
    """The seat's legal actions in a body, read as the match page reads them
    (``static/match.js``): the one place the client reads them."""
    return [str(a) for a in body.get("legal") or []]


class Server:
    """Calls to one server: a login's bearer token, or a guest's seat cookie."""

    def __init__(self, base: str) -> None:
        self.base = base
        # the Origin a state-changing call riding on a cookie must carry (docs/api.md)
        self.http = httpx2.Client(base_url=base, timeout=TIMEOUT, headers={"origin": base})

    def close(self) -> None:
        self.http.close()

    def call(self, method: str, path: str, **given: Any) -> httpx2.Response:
        try:
            answer = self.http.request(method, path, **given)
        except (httpx2.HTTPError, httpx2.InvalidURL) as err:
            raise ConnectError(f"cannot reach {self.base}: {err or type(err).__name__}") from None
        if answer.status_code >= 400:
            raise Refused(answer.status_code, _error_of(answer))
        return answer

    def json(self, method: str, path: str, **given: Any) -> Any:
        answer = self.call(method, path, **given)
        try:
            return answer.json()
        except ValueError:
            raise ConnectError(f"{self.base} answered {path} with something not JSON") from None

    def log_in(self, username: str, password: str) -> None:
        try:
            given = {"username": username, "password": password}
            found = self.json("POST", "/api/login", json=given)
        except Refused as err:
            raise ConnectError(f"login refused for {username!r}: {err}") from None
        self.http.cookies.clear()  # the token alone, as a client of another language
        self.http.headers["authorization"] = f"Bearer {found['token']}"

    def take_invitation(self, token: str) -> tuple[str, str]:
        """Open an invitation link: the match and seat it gives (to the account logged
        in, else to a guest, whose seat secret the server sets as a cookie)."""
        try:
            answer = self.call("GET", f"/invite/{quote(token)}", follow_redirects=False)
        except Refused as err:
            words = {
                404: "this invitation link is not valid (or a newer link replaced it)",
                409: "this invitation was already used: ask whoever sent it for a new link",
            }
            raise ConnectError(words.get(err.status, f"invitation refused: {err}")) from None
        where = urlsplit(answer.headers.get("location", ""))
        path = [p for p in where.path.split("/") if p]
        seat = parse_qs(where.query).get("seat", [""])[0]
        if answer.status_code != 303 or len(path) != 2 or path[0] != "matches" or not seat:
            raise ConnectError(f"{self.base} did not answer the invitation as a server does")
        return path[1], seat

    def socket(self, match: str, seat: str) -> ClientConnection:
        """The match's WebSocket for ``seat`` (a body pushed after every change)."""
        url = self.base.replace("http", "ws", 1) + f"/ws/matches/{quote(match)}?seat={quote(seat)}"
        headers = {"origin": self.base}
        if "authorization" in self.http.headers:
            headers["authorization"] = self.http.headers["authorization"]
        cookies = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        if cookies:
            headers["cookie"] = cookies
        try:
            return open_socket(url, additional_headers=headers, open_timeout=TIMEOUT)
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as err:
            raise ConnectError(f"cannot open the match's socket: {err}") from None


def _error_of(answer: httpx2.Response) -> str:
    try:
        found = answer.json()
    except ValueError:
        return f"HTTP {answer.status_code}"
    if isinstance(found, dict) and isinstance(found.get("error"), str):
        return str(found["error"])
    return f"HTTP {answer.status_code}"


@dataclass
class Login:
    """Who plays: a user name and password (asked for when missing), or nobody (a
    guest's invitation)."""

    username: str | None
    password: str | None


class Connection:
    """One seat of one match on a server, played at the terminal."""

    def __init__(
        self,
        server: Server,
        match: str,
        seat: str,
        console: Console,
        read: Callable[[str], str],
    ) -> None:
        self.server = server
        self.match = match
        self.seat = seat
        self.console = console
        self.read = read
        self.seen = 0
        self.shown: str | None = None
        #: whether the board shown last was shown as the final one
        self.shown_final = False
        self.game: Game[Any] | None = None

    # ----- the server's answers ----------------------------------------------------------
    def body(self) -> dict[str, Any]:
        path = f"/api/matches/{quote(self.match)}"
        found: dict[str, Any] = self.server.json("GET", path, params={"seat": self.seat})
        return found

    def terminal(self) -> dict[str, Any]:
        path = f"/api/matches/{quote(self.match)}/terminal"
        found: dict[str, Any] = self.server.json("GET", path, params={"seat": self.seat})
        return found

    def result(self) -> str:
        path = f"/api/matches/{quote(self.match)}/result"
        return str(self.server.json("GET", path).get("result") or "")

    def game_of(self, body: dict[str, Any]) -> Game[Any]:
        if self.game is None:
            try:
                self.game = get_game(str(body.get("game")))
            except GladiatoriumError:
                raise ConnectError(
                    f"this server plays {body.get('game')!r}, a game this gladiatorium does "
                    "not know: update it"
                ) from None
        return self.game

    # ----- playing ------------------------------------------------------------------------
    def play(self) -> str:
        """Show the seat's match, read and send its moves, wait for the others; the
        result in words once the match is over."""
        body = self.body()
        if body.get("outcome") is not None:
            self.show(body, self.terminal())
            raise ConnectError(f"this match is over: {self.result()}")
        with self.server.socket(self.match, self.seat) as socket:
            waited_at: int | None = None
            while True:
                body, parts = self.body(), self.terminal()
                game = self.show(body, parts)
                if body.get("outcome") is not None:
                    break
                legal = legal_of(body)
                if parts.get("deciding") and legal:
                    self.turn(game, parts, legal)
                    waited_at = None
                    continue
                if waited_at != parts["ply"]:
                    awaiting = ", ".join(body.get("awaiting") or []) or "nobody"
                    self.console.print(Text(f"waiting for seat {awaiting}...", style="dim"))
                    waited_at = parts["ply"]
                self.wait(socket)
        summary = str(self.terminal().get("summary") or "")
        if summary:
            self.console.print(Text(summary, style="bold"), highlight=False)
        return self.result()

    def show(self, body: dict[str, Any], parts: dict[str, Any]) -> Game[Any]:
        """The events new to this seat, then the board unless unchanged."""
        game = self.game_of(body)
        events = body.get("events") or []
        for event in events[self.seen :]:
            text = str(event.get("text", "")) if isinstance(event, dict) else str(event)
            self.console.print(Text.assemble("  ", ("·", "dim"), " ", text), highlight=False)
        self.seen = len(events)
        picture = str(parts.get("picture") or "")
        over = body.get("outcome") is not None
        # the final board is shown once the body says the match is over, even when the
        # picture came with an earlier read (the board and the body are two requests: a
        # bot may end the match between them)
        if picture != self.shown or (over and not self.shown_final):
            show_board(self.console, picture, "final board" if over else f"seat {self.seat}")
            legend = game.terminal.legend()
            if legend:
                self.console.print(Text(" ".join(legend.split()), style="dim"), highlight=False)
            self.shown, self.shown_final = picture, over
        return game

    def turn(self, game: Game[Any], parts: dict[str, Any], legal: list[str]) -> None:
        """Read the seat's move (the commands as at ``gladiatorium play``) and send it;
        a refused move is said, and asked again."""
        notes = {str(k): str(v) for k, v in (parts.get("notes") or {}).items()}
        if len(legal) <= LISTED:
            self.console.print(Text("  ".join(with_note(a, notes) for a in legal), style="dim"))
        prompt = str(parts.get("prompt") or self.seat)
        while True:
            try:
                text = self.read(f"{prompt}> ")
            except EOFError:
                raise Quit from None
            command = text.strip().lower()
            if command in {"quit", "exit"}:
                raise Quit
            if not command:
                continue
            if command == "help":
                print_help(game, self.console)
                continue
            if command == "rules":
                if not show_rules(game, self.console):
                    self.console.print(f"{game.info.name} has no rules text")
                continue
            if command == "board":
                self.shown = None
                self.console.print(Text(str(parts.get("picture") or "")), highlight=False)
                continue
            if command in {"legal", "?"} or command.startswith(("legal ", "? ")):
                print_legal(self.console, legal, notes, command.partition(" ")[2].strip())
                continue
            try:
                self.server.json(
                    "POST",
                    f"/api/matches/{quote(self.match)}/actions",
                    json={"seat": self.seat, "action": text.strip()},
                )
            except Refused as err:
                self.console.print(
                    Text.assemble((str(err), "red"), " (type 'legal' or 'help')"), highlight=False
                )
                if err.status in (401, 403, 404):
                    raise ConnectError(f"move refused: {err}") from None
                if err.status == 409:
                    return  # the match moved on (a deadline, the end): look again
                continue
            return

    def wait(self, socket: ClientConnection) -> None:
        """Until the socket pushes a change (or a while passes: look again anyway)."""
        try:
            message = socket.recv(timeout=LOOK_AGAIN)
        except TimeoutError:
            return
        except WebSocketException as err:
            raise ConnectError(f"the server closed the match's socket: {err}") from None
        if isinstance(message, str) and '"error"' in message:
            found = json.loads(message)
            if isinstance(found, dict) and isinstance(found.get("error"), str):
                self.console.print(Text(found["error"], style="red"), highlight=False)


class Quit(Exception):
    """The person typed ``quit`` (or input ended): the match goes on without them."""


def connect(
    url: str,
    seat: str | None,
    login: Login,
    console: Console,
    read: Callable[[str], str],
    ask_password: Callable[[str], str],
) -> str:
    """Join the seat ``url`` names and play it to the end; the result in words. Raises
    :class:`ConnectError` (a line for the person) or :class:`Quit`."""
    target = parse_link(url, seat)
    server = Server(target.base)
    try:
        username = login.username
        if target.invite is None and not username:
            username = read("user name: ").strip()
            if not username:
                raise ConnectError("a match's link needs a login: give --user (or an invitation)")
        if username:
            password = login.password or ask_password(f"password for {username}: ")
            server.log_in(username, password)
        if target.invite is not None:
            match, taken = server.take_invitation(target.invite)
            if seat and seat != taken:
                raise ConnectError(f"the invitation gives seat {taken}, not seat {seat}")
        else:
            assert target.match is not None
            match, taken = target.match, target.seat or ""
            if not taken:
                raise ConnectError("which seat? give --seat S (or ?seat=S in the link)")
            _take_seat(server, match, taken)
        console.print(Text(f"match {match}, seat {taken} on {target.base}", style="bold"))
        return Connection(server, match, taken, console, read).play()
    finally:
        server.close()


def _take_seat(server: Server, match: str, seat: str) -> None:
    """Make sure the login holds ``seat``: joined when it is open."""
    path = f"/api/matches/{quote(match)}"
    try:
        server.json("GET", path, params={"seat": seat})
        return
    except Refused as err:
        if err.status == 404:
            raise ConnectError(f"no such match on {server.base}: {match!r}") from None
        if err.status != 403:
            raise ConnectError(f"seat {seat}: {err}") from None
    try:
        server.json("POST", f"{path}/join", json={"seat": seat})
    except Refused as err:
        raise ConnectError(f"seat {seat} of match {match}: {err}") from None
