"""The processes and what they run: the RQ jobs and their runtime, the worker, the scheduler, logs and metrics."""
