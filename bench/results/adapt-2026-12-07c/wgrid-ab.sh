#!/bin/bash
# A/B of the band on the periods less the time outside: 1 ms of computation before every call
# (coll_loop -w 1e-3), flat P = 64, one root; /tmp/ab/libhead (1737629) then /tmp/ab/libnew
cd "$(dirname "$0")" || exit 1
A=../adapt-2026-12-06g/abgrid.sh
$A wgrid-ab.txt flat 64 "reduce bcast gather allreduce" "8 32768" "balanced noise one_late" -w 1e-3
