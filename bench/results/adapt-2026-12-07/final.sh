#!/bin/bash
# libraries (SMPI builds of libarcoll.so): /tmp/ab/libhead = ee3d29f, /tmp/ab/libnew = 6f4e780
cd "$(dirname "$0")" || exit 1
G=../adapt-2026-12-06g/abgrid.sh
$G ab-flat64.txt flat 64 "bcast scatter" "8 32768" "balanced noise one_late eight_late" -R
$G ab-flat64.txt flat 64 "bcast" "32768" "balanced one_late" -R -w 2e-3
$G ab-fixed-flat64.txt flat 64 "bcast" "8 32768" "balanced noise one_late eight_late"
$G ab-more.txt flat 256 "bcast" "32768" "balanced noise one_late" -R
$G ab-more.txt flat 64 "bcast" "1048576" "balanced noise" -R -n 40
$G ab-more.txt tree 64 "bcast" "32768" "balanced noise one_late" -R
export LIB=/tmp/ab/libnew TMO=900
../adapt-2026-12-06f/rot.sh sel-more.txt flat 64 bcast 32768 "eight_late" -R
../adapt-2026-12-06f/rot.sh sel-more.txt flat 256 bcast 32768 "balanced noise one_late" -R
../adapt-2026-12-06f/rot.sh sel-more.txt flat 64 bcast 1048576 "balanced noise" -R -n 40
../adapt-2026-12-06f/rot.sh sel-more.txt tree 64 bcast 32768 "balanced noise one_late" -R
