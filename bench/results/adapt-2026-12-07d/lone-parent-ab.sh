#!/bin/bash
# A/B, /tmp/ab/libhead = 2d346d2, /tmp/ab/libnew = the rule kept (the lone parent's leaf) -> lone-parent-ab.txt
cd "$(dirname "$0")" || exit 1
A=../adapt-2026-12-06g/abgrid.sh; O=lone-parent-ab.txt
$A $O flat 64 "bcast" "32768" "moving noise balanced late_root"
$A $O tree 64 "bcast" "32768" "moving noise balanced seed001" -R
$A $O tree 64 "bcast" "8192" "one_late eight_late moving seed001" -R
$A $O tree 64 "bcast" "8192" "seed001 moving"
$A $O flat 64 "bcast" "8192" "seed001 eight_late noise" -R
$A $O flat 256 "bcast" "32768" "one_late seed001 eight_late"
$A $O flat 256 "bcast" "32768" "one_late" -R
