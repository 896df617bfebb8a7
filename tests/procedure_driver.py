"""Drive a procedure through a test vector's script, one answer at a time, as the service would."""
from adjudicator.procedure import answer, next_step


def drive(procedure, state, script, label):
    """``script`` holds (expected step label, answer) pairs; ``label(step)`` names a step.

    Returns (log, final step).  Fails if a step is not the one the script expects.
    """
    log: list = []
    step = next_step(procedure, state, log)
    for expected, value in script:
        assert label(step) == expected, f"after {len(log)} answers expected {expected}, got {label(step)}"
        log, step = answer(procedure, state, log, value)
    return log, step
