"""What PyPI gnubg's commands print, read back: they write through C stdio, not Python's."""
import os
import sys
import tempfile


def capture(fn):
    """Runs `fn` and returns what it printed on file descriptor 1."""
    sys.stdout.flush()
    fd = os.dup(1)
    tmp = tempfile.TemporaryFile(mode='w+')
    os.dup2(tmp.fileno(), 1)
    try:
        fn()
    finally:
        sys.stdout.flush()
        os.dup2(fd, 1)
        os.close(fd)
    tmp.seek(0)
    return tmp.read()
