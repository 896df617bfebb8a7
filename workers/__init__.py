"""RQ jobs that adjudicate phases, the worker and scheduler processes, and the
Redis state model shared with the HTTP service (``workers.state``)."""
