"""The graded runs' IPython kernel: ipykernel, started without its debugger and without an IP socket.

Nobody attaches a debugger to a graded run, and importing debugpy costs each submission about
0.05 CPU-seconds; ipykernel runs without one wherever debugpy is not installed, as here.
The kernel talks to the runner over unix sockets (ipc transport), and its IOPub thread is built
with `pipe=False` (the constructor's public option): with the pipe, ipykernel binds a
`tcp://127.0.0.1` socket for the output of forked child processes whatever the transport, and
a host that refuses IP sockets (a TPU VM's sandboxed runtime) aborts the kernel in libzmq. So
what a forked child (os.fork, multiprocessing's fork start method) prints is dropped; a
subprocess's output captured by the parent, and everything the kernel itself prints, is kept.
Like ipykernel_launcher, it keeps its own folder off the student's sys.path (the kernel puts
the working folder there).
"""
import os
import sys

if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]
sys.modules["debugpy"] = None

from ipykernel import iostream, kernelapp  # noqa: E402


class IOPubWithoutForkPipe(iostream.IOPubThread):
    def __init__(self, socket, pipe=False, session=False):
        super().__init__(socket, pipe=False, session=session)


kernelapp.IOPubThread = IOPubWithoutForkPipe
kernelapp.launch_new_instance()
