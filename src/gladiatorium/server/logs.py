"""A server process's log lines are written by one thread of their own: the threads
that log (the steps' worker threads log a line per step, the event loop its requests)
only put the record on a queue (``logging.handlers.QueueHandler``), and a listener
thread formats and writes them (``QueueListener``). Every thread writing through the
handler itself made them queue up on its lock, each waiting while another held it
across a switch of the interpreter's lock: at a hundred busy Pig matches a tenth of
the server's time went there (docs/server.md, "The latest figures").

The lines are those the handlers wrote before, in the order they were logged; the
process writes the queued ones before it stops (a process killed outright loses the
last few milliseconds of lines, never a step: those are in the database)."""

from __future__ import annotations

import logging
import queue
from logging.handlers import QueueHandler, QueueListener


def log_through_a_thread() -> QueueListener:
    """Put the root logger's handlers behind a queue and a listener thread (started);
    stop the listener to write what is still queued and give the handlers back."""
    root = logging.getLogger()
    records: queue.SimpleQueue[logging.LogRecord] = queue.SimpleQueue()
    listener = _Listener(records, root)
    for handler in listener.handlers:
        root.removeHandler(handler)
    root.addHandler(listener.front)
    listener.start()
    return listener


class _Listener(QueueListener):
    """A listener of the root logger's handlers, which it gives back when it stops in
    place of the queue's handler (``front``)."""

    def __init__(self, records: queue.SimpleQueue[logging.LogRecord], root: logging.Logger) -> None:
        super().__init__(records, *root.handlers, respect_handler_level=True)
        self.root = root
        self.front = QueueHandler(records)

    def stop(self) -> None:
        super().stop()
        self.root.removeHandler(self.front)
        for handler in self.handlers:
            self.root.addHandler(handler)
