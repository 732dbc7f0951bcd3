#!/usr/bin/env python3
"""Every test that launches MPI ranks holds the one ctest resource lock `mpi`.

Two MPI jobs at once on this project's 2-core machines slow each other up to
8x (MPICH busy-polls) and stall; `ctest -j N` keeps tests that hold the same
RESOURCE_LOCK apart, so every test that starts ranks - label `mpi`, `smpi`
or `realapps`, or a command naming mpiexec / smpirun - must hold `mpi`, and
every test whose command names a launcher must carry one of those labels (the
README's `-L unit` runs must start no ranks).

Usage: mpi_lock_check.py BUILD_DIR [CTEST]. Reads `ctest --show-only=json-v1`
in BUILD_DIR; prints each offending test and exits 1, else prints a count and
exits 0.
"""
import json
import subprocess
import sys

LAUNCH_LABELS = {"mpi", "smpi", "realapps"}
LAUNCHERS = ("mpiexec", "mpirun", "smpirun")


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    ctest = sys.argv[2] if len(sys.argv) == 3 else "ctest"
    out = subprocess.run([ctest, "--show-only=json-v1"], cwd=sys.argv[1], check=True,
                         capture_output=True, text=True).stdout
    bad, launching = [], 0
    for t in json.loads(out)["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        labels = set(props.get("LABELS", []))
        locks = set(props.get("RESOURCE_LOCK", []))
        cmd = " ".join(t.get("command") or [])
        names_launcher = any(l in cmd for l in LAUNCHERS)
        if names_launcher and not labels & LAUNCH_LABELS:
            bad.append(f"{t['name']}: starts ranks ({cmd.split()[0]} ...) but has labels "
                       f"{sorted(labels) or 'none'}: give it label mpi or smpi")
        if labels & LAUNCH_LABELS or names_launcher:
            launching += 1
            if "mpi" not in locks:
                bad.append(f"{t['name']}: starts ranks but holds RESOURCE_LOCK "
                           f"{sorted(locks) or 'none'}: add RESOURCE_LOCK mpi")
    for line in bad:
        print(line)
    print(f"mpi_lock_check: {launching} tests start ranks, {len(bad)} problems")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
