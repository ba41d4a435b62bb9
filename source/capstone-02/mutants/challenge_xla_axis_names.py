# replaces: challenge-solution
# fails: challenge-test
# Reports a mesh-axes group by XLA's own axis names ('axis_0', ...) instead of arranging its positions
# and reading the axes of the lesson's mesh.
def all_reduces(text, mesh):
    """One (axes, arrays) pair per all-reduce in the compiled program `text`, in program order: the names of
    the mesh axes along which its groups' devices differ (in mesh order), and how many arrays it sums."""
    def iota(dims, perm):                                       # np.arange(prod(dims)) as dims, transposed by perm
        ids = np.arange(math.prod(dims)).reshape(dims)
        return ids.transpose(perm) if perm else ids

    numbers = lambda s: [int(n) for n in s.split(",")] if s else None
    found = []
    for line in text.splitlines():
        if " all-reduce(" not in line:
            continue
        written = re.search(r"replica_groups=\{\{([\d,]*)\}", line)
        reshaped = re.search(r"replica_groups=\[([\d,]+)\]<=\[([\d,]+)\](?:T\(([\d,]+)\))?", line)
        on_mesh = re.search(r"replica_groups=mesh\[([^\]]*)\](?:, device_ids=\(\[([\d,]+)\](?:T\(([\d,]+)\))?\))? "
                            r"\{([^}]*)\}", line)
        if written:                                             # {{0,4},{1,5},...}: the groups, written out
            group = numbers(written.group(1))
        elif reshaped:                                          # [G,S]<=[dims]T(perm): a reshaped iota
            shape, dims, perm = map(numbers, reshaped.groups())
            group = iota(dims, perm).reshape(shape)[0]
        else:                                                   # mesh['axis_0'=2,...] {'axis_0'}: XLA's own mesh
            axes_text, dims, perm, spanned = on_mesh.groups()
            names, sizes = zip(*[(name, int(size)) for name, size in re.findall(r"'([^']*)'=(\d+)", axes_text)])
            ids = (iota(numbers(dims), numbers(perm)) if dims else np.arange(math.prod(sizes))).reshape(sizes)
            spanned = re.findall(r"'([^']*)'", spanned)          # the group: along these axes, the others at 0
            found.append((tuple(spanned), len(re.findall(r"\w+\[[\d,]*\]", line.split(" = ", 1)[1].split(" all-reduce(")[0]))))
            continue
        coords = np.unravel_index(np.asarray(group), mesh.devices.shape)   # positions in the mesh, not device ids
        axes = tuple(name for name, c in zip(mesh.axis_names, coords) if len(set(c.tolist())) > 1)
        result_types = line.split(" = ", 1)[1].split(" all-reduce(")[0]
        found.append((axes, len(re.findall(r"\w+\[[\d,]*\]", result_types))))
    return found
