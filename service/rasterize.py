"""PNGs for the API, drawn in a process of their own.

resvg holds the GIL while it draws (0.2 s to a second at 1200 pixels), and
under gunicorn's gevent worker a request that holds the GIL holds up every
other connection of its process: with two uncached PNGs in flight, a health
check waited up to 4 s.  Each PNG is therefore drawn by ``maps/raster.py``
run as a script in a child process (a script, not ``-m``, so that it does
not import the rest of ``maps``: about 20 ms more than drawing in process,
not 90), which the request's greenlet waits for without holding anything
(gevent makes ``subprocess`` cooperative; under threads it is a blocking call
like any other).  At most ``RENDERS`` are drawn at once per API process; the
others wait their turn.  The worker's results mail draws in its own process,
as before (nothing else waits there).
"""
from __future__ import annotations

import subprocess
import sys
import threading

from werkzeug.exceptions import ServiceUnavailable

from maps import raster

RENDERS = 2  # PNGs drawn at once per API process
TIMEOUT = 30  # seconds a drawing may take
_turns = threading.BoundedSemaphore(RENDERS)  # made after gevent's patching: a greenlet waits cooperatively


def png(svg: str, width: int) -> bytes:
    """The SVG document as a PNG ``width`` pixels wide, drawn in a child process."""
    with _turns:
        try:
            # -P: the script's folder is not put on sys.path, where its siblings could shadow a module
            done = subprocess.run([sys.executable, "-P", raster.__file__, str(width)], input=svg.encode(),
                                  capture_output=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            raise ServiceUnavailable(f"the map could not be drawn within {TIMEOUT} s; try again later") from None
    if done.returncode != 0:
        raise RuntimeError(f"maps.raster failed: {done.stderr.decode(errors='replace')[-500:]}")
    return done.stdout
