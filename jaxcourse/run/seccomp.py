"""A seccomp program that refuses IP sockets, for `--no-ip-sockets`: a sandbox as a TPU host has it.

A TPU VM's sandboxed runtime refuses socket(AF_INET) and socket(AF_INET6) with errno 97
(EAFNOSUPPORT) and allows unix sockets. bwrap loads this program (`--seccomp FD`) into the
sandbox, so a run here meets the same refusal: grading that works under it opens no IP socket.
It is a rehearsal of that host, not a defence (the sandbox already has no network).
"""
from __future__ import annotations

import errno
import platform
import socket
import struct

# struct seccomp_data: the syscall number at offset 0, the audit architecture at 4, args from 16.
NR, ARCH, ARG0 = 0, 4, 16
LD_ABS, JEQ, RET = 0x20, 0x15, 0x06  # BPF_LD|BPF_W|BPF_ABS, BPF_JMP|BPF_JEQ|BPF_K, BPF_RET|BPF_K
ALLOW, ERRNO = 0x7FFF0000, 0x00050000
X32_BIT = 0x40000000
# machine: (audit architecture, socket's syscall number)
SYSCALLS = {"x86_64": (0xC000003E, 41), "aarch64": (0xC00000B7, 198)}


class Unsupported(RuntimeError):
    pass


def refuse_ip_sockets(machine: str | None = None) -> bytes:
    """The compiled program (struct sock_filter[]), for bwrap's --seccomp."""
    machine = machine or platform.machine()
    if machine not in SYSCALLS:
        raise Unsupported(f"refusing IP sockets is implemented for {', '.join(SYSCALLS)}, not {machine}")
    arch, nr = SYSCALLS[machine]
    x32_nr = nr | X32_BIT if machine == "x86_64" else nr
    program = [
        (LD_ABS, 0, 0, ARCH),
        (JEQ, 0, 6, arch),                      # another ABI: allow
        (LD_ABS, 0, 0, NR),
        (JEQ, 1, 0, nr),
        (JEQ, 0, 3, x32_nr),                    # not socket(): allow
        (LD_ABS, 0, 0, ARG0),                   # the domain (the low 32 bits)
        (JEQ, 2, 0, socket.AF_INET),
        (JEQ, 1, 0, socket.AF_INET6),
        (RET, 0, 0, ALLOW),
        (RET, 0, 0, ERRNO | errno.EAFNOSUPPORT),
    ]
    return b"".join(struct.pack("<HBBI", *instruction) for instruction in program)
