#!/bin/bash
# The derived late order (rot-ab.sh) at flat P = 256 and on the two-level tree, root c mod P
cd "$(dirname "$0")" || exit 1
A=../adapt-2026-12-06g/abgrid.sh
$A rot-more-ab.txt tree 64 "bcast scatter" "32768" "one_late eight_late moving balanced noise" -R
$A rot-more-ab.txt flat 256 "bcast" "32768" "one_late moving balanced noise" -R
$A rot-more-ab.txt flat 256 "bcast" "8192" "one_late noise" -R
