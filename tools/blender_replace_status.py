# Tries each Blender-made replacement (tests/blender/replace.py's, in DIR/<stem>.glb) with the remodel
# CLI as a modder would (issue 30): over the original (--like), as a new file, and as a new file
# with --skeleton; then export, check, textures extract, import of the export. Writes what fails per
# sample (exit codes, messages, warnings) to DIR/STATUS.txt. Needs numpy, not Blender.
#   usage: python3 tools/blender_replace_status.py REMODEL DIR SAMPLE...
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "blender"))
import replace_checks  # noqa: E402


def main(remodel, directory, samples):
    lines = []
    for original in samples:
        stem = os.path.splitext(os.path.basename(original))[0]
        replacement = os.path.join(directory, stem + ".glb")
        lines.append(f"=== {stem}  ({original}; replacement {replacement})")
        for like, skeleton, title in ((True, False, "over the original: import --like"),
                                      (False, False, "as a new file: import -o NEW (no --skeleton)"),
                                      (False, True, "as a new file: import -o NEW --skeleton ORIGINAL")):
            got = replace_checks.attempt(remodel, original, replacement, os.path.join(directory, "status", stem), like, skeleton)
            lines.append(f"--- {title}: {'OK' if not got['problems'] else str(len(got['problems'])) + ' problems'}")
            for p in got["problems"]:
                lines.append(f"  PROBLEM {p}")
            for command, code, said in got["steps"]:
                lines.append(f"  $ {command.replace(directory + '/', '')}  -> exit {code}")
                lines += [f"      {s}" for s in said if "warning" in s or "error" in s or code != 0]
        lines.append("")
        print("\n".join(lines[-40:]), flush=True)
    return lines


if __name__ == "__main__":
    remodel, directory, *samples = sys.argv[1:]
    head = [f"What `{remodel}` ({replace_checks.run(remodel, '--version')[1][0]}) does with each Blender-made replacement",
            f"(tools/blender_replace_status.py {' '.join(sys.argv[1:])}).",
            "PROBLEM lines are what issue 30 says must not happen: skeleton fields (names, parents, local transforms,",
            "inverse binds) unlike the original's export, Blender's weights (> 0.02) or colours lost, no 64x64 checker",
            "in `textures extract`, a command failing. Below each: every command, its exit code and what it warned.", ""]
    body = main(os.path.abspath(remodel), os.path.abspath(directory), samples)
    with open(os.path.join(directory, "STATUS.txt"), "w") as f:
        f.write("\n".join(head + body) + "\n")
