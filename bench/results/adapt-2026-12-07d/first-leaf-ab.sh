#!/bin/bash
# A/B, /tmp/ab/libhead = 2d346d2, /tmp/ab/libnew = the first variant (the shallowest leaf, the
# head's own leaf child) -> first-leaf-ab.txt (the 1 MiB rows on the tree timed out at 600 s)
cd "$(dirname "$0")" || exit 1
A=../adapt-2026-12-06g/abgrid.sh; O=first-leaf-ab.txt
$A $O tree 64 "bcast" "32768" "one_late eight_late moving" -R
$A $O tree 64 "bcast" "32768" "one_late eight_late moving"
$A $O flat 64 "bcast" "8192 32768" "one_late eight_late moving" -R
$A $O flat 64 "bcast scatter" "32768" "one_late eight_late moving seed001"
$A $O flat 64 "scatter" "8 32768" "one_late eight_late" -R
$A $O tree 64 "scatter" "32768" "one_late eight_late" -R
$A $O tree 64 "scatter" "32768" "one_late eight_late"
$A $O tree 64 "bcast" "8192 1048576" "one_late eight_late"
$A $O tree 64 "bcast" "32768" "balanced noise late_root seed001" -R
$A $O tree 64 "bcast" "32768" "seed001"
$A $O flat 64 "bcast" "1048576" "one_late eight_late" -n 40
