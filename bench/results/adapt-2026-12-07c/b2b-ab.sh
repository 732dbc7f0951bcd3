#!/bin/bash
# A/B of the band on the periods less the time outside, back to back (no computation between
# calls, where the time outside is about 0): P = 64, both platforms, one root
cd "$(dirname "$0")" || exit 1
A=../adapt-2026-12-06g/abgrid.sh
for p in flat tree; do
  $A b2b-ab.txt $p 64 "reduce bcast gather allreduce" "8 32768" "balanced noise one_late"
done
