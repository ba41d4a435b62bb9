# replaces: challenge-solution
# fails: challenge-test
# Reads only written-out groups ({{...}}); any other group ([2,4]<=[8], mesh[...]) is taken for all the devices.
def all_reduces(text, mesh):
    """One (axes, arrays) pair per all-reduce in the compiled program `text`, in program order: the names of
    the mesh axes along which its groups' devices differ (in mesh order), and how many arrays it sums."""
    numbers = lambda s: [int(n) for n in s.split(",")] if s else None
    found = []
    for line in text.splitlines():
        if " all-reduce(" not in line:
            continue
        written = re.search(r"replica_groups=\{\{([\d,]*)\}", line)
        group = numbers(written.group(1)) if written else list(range(mesh.size))
        coords = np.unravel_index(np.asarray(group), mesh.devices.shape)   # positions in the mesh, not device ids
        axes = tuple(name for name, c in zip(mesh.axis_names, coords) if len(set(c.tolist())) > 1)
        result_types = line.split(" = ", 1)[1].split(" all-reduce(")[0]
        found.append((axes, len(re.findall(r"\w+\[[\d,]*\]", result_types))))
    return found
