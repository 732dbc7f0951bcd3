#!/bin/bash
# libraries (SMPI builds of libarcoll.so): /tmp/ab/libhead = 90f5746, /tmp/ab/libnew = this session's
# summary pooled over a site's roots (adapt/lateness.c arcoll_late_summarise, 5d6dc93)
cd "$(dirname "$0")" || exit 1
G=../adapt-2026-12-06g/abgrid.sh
$G ab-rot-flat64.txt flat 64 "bcast scatter reduce gather" "8 32768" "balanced noise one_late eight_late moving" -R
$G ab-rot-more.txt flat 64 "bcast" "8192 16384" "balanced noise one_late eight_late" -R
$G ab-rot-more.txt tree 64 "bcast scatter" "32768" "balanced noise one_late" -R
$G ab-fixed.txt flat 64 "bcast reduce" "32768" "noise one_late" 
$G ab-rot-256.txt flat 256 "bcast" "32768" "balanced noise one_late" -R
$G ab-rot-256.txt flat 256 "bcast" "8192" "noise" -R
