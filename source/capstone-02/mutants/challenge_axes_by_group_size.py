# replaces: challenge-solution
# fails: challenge-test
# Guesses the axes from the size of a group alone: the axes whose sizes multiply to it, first match.
def all_reduces(text, mesh):
    """One (axes, arrays) pair per all-reduce in the compiled program `text`, in program order: the names of
    the mesh axes along which its groups' devices differ (in mesh order), and how many arrays it sums."""
    import itertools
    found = []
    for line in text.splitlines():
        if " all-reduce(" not in line:
            continue
        iota = re.search(r"replica_groups=\[([\d,]+)\]<=", line)
        if iota:
            size = int(iota.group(1).split(",")[1])
        else:
            size = len(re.search(r"replica_groups=\{\{([\d,]*)\}", line).group(1).split(","))
        names = [name for n in range(1, len(mesh.axis_names) + 1) for name in itertools.combinations(mesh.axis_names, n)
                 if math.prod(mesh.shape[a] for a in name) == size][0]
        result_types = line.split(" = ", 1)[1].split(" all-reduce(")[0]
        found.append((tuple(names), len(re.findall(r"\w+\[[\d,]*\]", result_types))))
    return found
