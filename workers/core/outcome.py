"""What a job did: the typed result of every job (RQ keeps it as the job's return value)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class JobOutcome:
    done: bool  # False: the job found its work done or superseded, and changed nothing
    detail: str

    @classmethod
    def did(cls, detail: str) -> "JobOutcome":
        return cls(True, detail)

    @classmethod
    def noop(cls, detail: str) -> "JobOutcome":
        return cls(False, detail)

    def __str__(self) -> str:
        return self.detail if self.done else f"noop: {self.detail}"
