"""A Ctrl-C while a search's child starts: held back until the child's target is ready."""

import multiprocessing
import signal

from fewest.solvers.common.processes import end_child, interrupts_let_through, start_child


def _report(sender) -> None:
    """Whether SIGINT is held back as the target starts, then once it lets it through."""
    held = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    interrupts_let_through()
    sender.send((held, signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])))
    sender.close()


def test_a_forked_child_starts_with_sigint_held_and_the_parent_keeps_its_own_mask():
    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = start_child(context.Process(target=_report, args=(sender,), daemon=True))
    sender.close()
    try:
        assert receiver.poll(10)
        assert receiver.recv() == (True, False)
    finally:
        end_child(child)
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before
