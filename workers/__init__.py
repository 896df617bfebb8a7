"""The Redis state model shared by the HTTP service and the RQ workers, in four layers,
each importing only those below it (checked by import-linter, ``.importlinter``):

* ``runtime``: the RQ jobs and the processes that run them (worker, scheduler), logs and metrics;
* ``tables``: the tables' state and rules of change (games, resolutions, tournaments, votes, absences);
* ``delivery``: telling listeners (events, e-mail, webhooks, reminders);
* ``core``: settings, keys, the store, errors, the director's clock, the audit log.
"""
