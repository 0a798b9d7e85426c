"""What the mail tests share: an SMTP server on loopback (aiosmtpd) that keeps the mail
it receives, and a person's mail over the API of a real server."""

from __future__ import annotations

import re
import threading
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

import httpx2
from aiosmtpd.controller import Controller
from server_helpers import free_port, wait_for
from talk_helpers import Person

PUBLIC = "http://games.test"


class Sink:
    """The mail an SMTP server received; ``refuse``: answer every mail 451 (a server
    that is up but cannot take mail now)."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.refuse = False
        self.refused = 0
        self._lock = threading.Lock()

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        if self.refuse:
            self.refused += 1
            return "451 4.3.0 try again later"
        message = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        with self._lock:
            self.messages.append(message)
        return "250 OK"

    def to(self, address: str, subject: str = "") -> list[EmailMessage]:
        with self._lock:
            return [m for m in self.messages if m["To"] == address and subject in str(m["Subject"])]

    def wait(self, address: str, subject: str = "", count: int = 1) -> list[EmailMessage]:
        """The mails to ``address`` whose subject holds ``subject``, once ``count`` came."""

        def enough() -> list[EmailMessage] | None:
            found = self.to(address, subject)
            return found if len(found) >= count else None

        return list(wait_for(enough, 30, f"{count} mail(s) {subject!r} to {address}"))


class SmtpServer:
    """An aiosmtpd server on a loopback port, stopped and started again at will."""

    def __init__(self) -> None:
        self.sink = Sink()
        self.port = free_port()
        self.controller: Controller | None = None

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Listen (again) on the same port: a new controller, as a stopped one's loop is
        closed."""
        self.controller = Controller(self.sink, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


def text_of(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


def link_in(message: EmailMessage, path: str) -> str:
    """The path of the first link to ``PUBLIC + path...`` in the mail."""
    found = re.search(re.escape(PUBLIC) + r"(" + re.escape(path) + r"\S+)", text_of(message))
    assert found, text_of(message)
    return found.group(1)


def choose(person: Person, **settings: Any) -> dict[str, Any]:
    answer = httpx2.put(person.url("/api/me/mail"), json=settings, headers=person.headers)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def mail_settings(person: Person) -> dict[str, Any]:
    answer = httpx2.get(person.url("/api/me/mail"), headers=person.headers)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def confirm(person: Person, sink: Sink, address: str) -> None:
    """Open the link of the confirmation sent to ``address``."""
    letter = sink.wait(address, "Confirm")[-1]
    answer = httpx2.get(person.url(link_in(letter, "/mail/confirm/")))
    assert answer.status_code == 200, answer.text
    assert mail_settings(person)["confirmed"] is True
