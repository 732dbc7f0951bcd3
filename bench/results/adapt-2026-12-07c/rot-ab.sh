#!/bin/bash
# A/B of the late order derived for the roots without an entry at a site whose root moves
# (adapt/order.c arcoll_history_order): /tmp/ab/libhead = 37eebda, /tmp/ab/libnew = the change.
# Root c mod P (-R), flat 64: four rooted collectives x 8 B, 32 KiB x five scenarios; the 8 and
# 16 KiB bcast; one root (no -R), bcast and reduce at 32 KiB with a moving late rank
cd "$(dirname "$0")" || exit 1
A=../adapt-2026-12-06g/abgrid.sh
$A rot-ab.txt flat 64 "bcast" "8192 16384" "one_late noise eight_late" -R
$A rot-ab.txt flat 64 "bcast scatter reduce gather" "8 32768" "one_late eight_late moving balanced noise" -R
$A rot-ab.txt flat 64 "bcast reduce" "32768" "moving one_late"
