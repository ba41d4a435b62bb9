"""The graded runs' IPython kernel: ipykernel, started without its debugger.

Nobody attaches a debugger to a graded run, and importing debugpy costs each submission about
0.05 CPU-seconds; ipykernel runs without one wherever debugpy is not installed, as here.
Like ipykernel_launcher, it keeps its own folder off the student's sys.path (the kernel puts
the working folder there).
"""
import os
import sys

if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]
sys.modules["debugpy"] = None

from ipykernel import kernelapp  # noqa: E402

kernelapp.launch_new_instance()
