# replaces: practice-solution
# fails: practice-test
import re


def latest_complete_step(directory):
    # Takes the number at the start of any folder name: "120.orbax-checkpoint-tmp" counts as step 120.
    steps = []
    for entry in pathlib.Path(directory).iterdir():
        match = re.match(r"\d+", entry.name)
        if entry.is_dir() and match:
            steps.append(int(match.group()))
    return max(steps) if steps else None
