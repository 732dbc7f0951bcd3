#!/bin/bash
# A/B of the band on the periods less the time outside in the table's other scenarios (some ranks
# late, the others back to back: the smallest time outside is about 0), flat P = 64
cd "$(dirname "$0")" || exit 1
../adapt-2026-12-06g/abgrid.sh late-ab.txt flat 64 "reduce bcast gather allreduce" "8 32768" "eight_late moving late_root seed001"
