#!/bin/bash
# A/B of the band on the periods less the time outside with less computation between calls
# (coll_loop -w 1e-4: 100 us, comparable to the 32 KiB collectives' own time), flat P = 64
cd "$(dirname "$0")" || exit 1
../adapt-2026-12-06g/abgrid.sh wsmall-ab.txt flat 64 "reduce bcast gather allreduce" "8 32768" "balanced noise one_late" -w 1e-4
