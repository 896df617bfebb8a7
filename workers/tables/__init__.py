"""The tables and their state: Diplomacy games (with votes and absences), resolutions, tournaments. Built on ``workers.core`` and ``workers.delivery``."""
