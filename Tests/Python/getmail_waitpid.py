"""getmail, with its wait for a delivery child made race-free, for the mail client tests.

getmail (6.18) forks a child to deliver each message and installs its SIGCHLD handler only after
the fork: a child that exits first (a loaded machine schedules it first) is never heard of, and the
parent waits its whole timeout, 60 s, for a signal that came before the handler (the tests saw
"msg 3 retrieved", then "user aborted" at their own 60 s limit, from Dovecot and from ours alike).
Here the parent waits for its child with waitpid itself; everything else is getmail's own code.

    python3 getmail_waitpid.py --getmaildir DIR --rcfile getmailrc
"""
import os
import runpy
import sys

import getmailcore.baseclasses as baseclasses
from getmailcore.exceptions import getmailOperationError


def prepare_child(self):
    """No SIGCHLD handler: the parent reaps its child in wait_for_child."""


def wait_for_child(self, childpid):
    """Waits for the delivery child and returns its exit code, as getmail's own wait does."""
    pid, status = os.waitpid(childpid, 0)
    if os.WIFSIGNALED(status):
        raise getmailOperationError('child pid %d killed by signal %d' % (pid, os.WTERMSIG(status)))
    if not os.WIFEXITED(status):
        raise getmailOperationError('child pid %d failed to exit' % pid)
    return os.WEXITSTATUS(status)


baseclasses.ForkingBase._prepare_child = prepare_child
baseclasses.ForkingBase._wait_for_child = wait_for_child
sys.argv = ["getmail"] + sys.argv[1:]
runpy.run_path("/usr/bin/getmail", run_name="__main__")
