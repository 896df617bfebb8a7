"""Pure rules engines: no I/O, no Redis, no Flask."""
