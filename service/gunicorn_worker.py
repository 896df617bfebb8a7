"""The API's gunicorn worker class (``service.gunicorn_conf`` names it): gevent's, so that an open
event stream (service/events_api.py) or a slow client (service/slow_clients.py) is a greenlet, not
a thread.

Under the launcher (``LAUNCHER_PID`` set, the launcher being the subreaper of its children's
orphans), a worker whose master died is adopted by the launcher and keeps serving on the port
the launcher holds, until the launcher's new API is ready and ends it with SIGTERM; gunicorn's
own workers would stop at once, leaving the port unserved while a new master boots.  Anywhere
else a worker whose master died stops, as gunicorn's do.
"""
from __future__ import annotations

import os

from gunicorn.workers.ggevent import GeventWorker

from workers.core import settings


class ServiceWorker(GeventWorker):
    def _adopted(self) -> None:
        """If the master died and the launcher adopted this worker, the launcher is its parent now."""
        launcher = settings.current().launcher_pid
        if launcher and self.ppid != launcher and os.getppid() == launcher:
            self.log.info("Master %s gone; serving until the launcher's next API is ready", self.ppid)
            self.ppid = launcher

    def notify(self):  # gunicorn's gevent worker checks its parent here
        self._adopted()
        super().notify()

