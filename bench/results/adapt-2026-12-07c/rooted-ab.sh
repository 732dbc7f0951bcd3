#!/bin/bash
# A/B of the rooted decision's result with one more float (the smallest time outside), back to back:
# the collectives whose decisions the root takes (bcast, scatter), P = 64, both platforms
cd "$(dirname "$0")" || exit 1
A=../adapt-2026-12-06g/abgrid.sh
for p in flat tree; do
  $A rooted-ab.txt $p 64 "bcast scatter" "8 32768" "balanced noise one_late"
done
