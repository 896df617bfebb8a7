"""The API's maps, drawn in child processes, off the loop that answers every other request.

Drawing holds the GIL: an SVG is Python (20-60 ms), a PNG is resvg (0.2 s to a second at 1200
pixels).  Under gunicorn's gevent worker, a map drawn in the worker's process, even in a thread
of gevent's pool, holds up every connection of that process: each time the loop gives up the GIL
to wait on a socket it waits again for the drawing to hand it back, so under a render flood
health checks took seconds (benchmarks/render_flood.py).  Each API process therefore draws in
child processes of its own (:data:`PROCESSES`, ``RENDER_DRAWING``, 2 unless set), each started
when a drawing first needs it (in the gunicorn worker, after its fork; never in the master) and
kept: a fresh Python (``python -m service.drawing``) that imports the maps once and then draws
one call at a time, read from its standard input, answered on its standard output (pickled, each
with its length).  A request's greenlet waits on that pipe without holding anything (gevent makes
``subprocess`` cooperative; under plain threads it is a blocking call like any other).  A child
ends when its pipe closes (its API process ended), or is killed after :data:`TIMEOUT` seconds on
one drawing (the request gets a 503) and replaced at the next.

The stateless bot's answers (``POST /v1/bots/diplomacy/orders``: a search of up to a few
tenths of a second, holding the GIL as a drawing does) are computed the same way, by children of
their own (:data:`BOT_PROCESSES`, ``BOT_THINKING``, 1 unless set): :func:`bot_orders`.

The worker's results mail draws in its own process: nothing else waits there.
"""
from __future__ import annotations

import os
import pickle
import struct
import subprocess
import sys
import threading

from werkzeug.exceptions import ServiceUnavailable

PROCESSES = int(os.environ.get("RENDER_DRAWING", "2"))  # children per API process: maps drawn at once
BOT_PROCESSES = int(os.environ.get("BOT_THINKING", "1"))  # children per API process: the bot's answers at once
TIMEOUT = 30  # seconds one drawing may take
_LENGTH = struct.Struct("!Q")


class Invalid(Exception):
    """The rules refuse the position to draw (``adjudicator.diplomacy.RequestError`` in the child):
    ``field`` names where (``units.ENGLAND[2]``), or None."""

    def __init__(self, message: str, field: str | None):
        super().__init__(message)
        self.field = field


def request_svg(request: dict) -> str:
    """``maps.render_request``: an interchange-format request adjudicated and drawn (:class:`Invalid`)."""
    return POOL.call("request", request)


def svg(position: dict, results: list[dict], title: str | None) -> str:
    """``maps.render_svg``: a position with its orders and their results."""
    return POOL.call("svg", position, results, title)


def png(svg_text: str, width: int) -> bytes:
    """``maps.render_png``: the SVG document as a PNG ``width`` pixels wide."""
    return POOL.call("png", svg_text, width)


def bot_orders(position: dict, power: str, seed, budget: int) -> list[str]:
    """``adjudicator.diplomacy.bot_orders``: the bot's orders for ``power`` (:class:`Invalid`)."""
    return BOTS.call("bot", position, power, seed, budget)


# ---------------------------------------------------------------- the API process's side
def _send(stream, value) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(data)) + data)
    stream.flush()


def _receive(stream):
    """The next value on ``stream``; EOFError when it has ended."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        raise EOFError
    data = stream.read(_LENGTH.unpack(head)[0])
    if len(data) < _LENGTH.unpack(head)[0]:
        raise EOFError
    return pickle.loads(data)


class Child:
    """One drawing process and its pipes."""

    def __init__(self):
        # -P: nothing but the installed packages on sys.path; stderr is the API's (a failure is logged there)
        self.proc = subprocess.Popen([sys.executable, "-P", "-m", "service.drawing"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.expired = False

    def call(self, name: str, args: tuple):
        """The child's answer to the call ``name(*args)``: ``("ok", value)``, ``("invalid", message,
        field)`` or ``("failed", traceback)``."""
        timer = threading.Timer(TIMEOUT, self.expire)
        timer.start()
        try:
            _send(self.proc.stdin, (name, args))
            return _receive(self.proc.stdout)
        except (EOFError, OSError):
            if self.expired:
                raise ServiceUnavailable(f"the map could not be drawn within {TIMEOUT} s; try again later") from None
            raise RuntimeError(f"the map drawing process ended (status {self.proc.poll()})") from None
        finally:
            timer.cancel()

    def expire(self) -> None:
        self.expired = True
        self.proc.kill()

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


class Pool:
    """At most ``size`` children, each started when first needed; a call waits for one that is free."""

    def __init__(self, size: int):
        self.size = size
        self._reset()

    def _reset(self) -> None:
        self.pid = os.getpid()  # a forked copy of a pool starts its own children
        self.free = threading.BoundedSemaphore(self.size)  # made after gevent's patching: waits cooperatively
        self.idle: list[Child] = []

    def call(self, name: str, *args):
        if self.pid != os.getpid():
            self._reset()
        with self.free:
            while self.idle and self.idle[-1].proc.poll() is not None:  # ended since (killed): replaced
                self.idle.pop()
            child = self.idle.pop() if self.idle else Child()
            try:
                kind, *value = child.call(name, args)
            except BaseException:  # its answer is lost (or half read): the next call gets a new child
                child.close()
                raise
            self.idle.append(child)
        if kind == "invalid":
            raise Invalid(*value)
        if kind == "failed":
            raise RuntimeError(f"the map could not be drawn: {value[0]}")
        return value[0]


POOL = Pool(PROCESSES)
BOTS = Pool(BOT_PROCESSES)


# ---------------------------------------------------------------- the child's side
def serve() -> None:
    """A child's life: each call read from standard input drawn and answered on standard output,
    until the input ends."""
    import traceback

    from adjudicator.diplomacy import RequestError, bot_orders
    from maps import render_png, render_request, render_svg

    calls = {"request": render_request, "svg": lambda p, r, t: render_svg(p, r, title=t), "png": render_png,
             "bot": bot_orders}
    channel, received = os.fdopen(os.dup(1), "wb"), sys.stdin.buffer
    os.dup2(2, 1)  # anything printed goes to the log, not into the answers
    while True:
        try:
            name, args = _receive(received)
        except EOFError:
            return
        try:
            answer = ("ok", calls[name](*args))
        except RequestError as e:
            answer = ("invalid", str(e), getattr(e, "field", None))
        except Exception:  # noqa: BLE001  (any failure is answered: the API logs it as a 500)
            answer = ("failed", traceback.format_exc(limit=-3))
        _send(channel, answer)


if __name__ == "__main__":
    serve()
