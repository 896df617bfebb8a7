"""The Redis state model shared by the HTTP service and the RQ workers.

``store`` is the one home of the machinery every table shares (transactions,
tokens, deadlines, exactly-once jobs, the director's clock); ``games``
(Diplomacy) and ``resolutions`` (the other games' procedures) are the kinds of
table built on it; ``jobs`` are what RQ runs; ``worker`` and ``scheduler``
are the processes."""
