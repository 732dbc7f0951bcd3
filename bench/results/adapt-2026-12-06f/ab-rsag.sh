#!/bin/bash
# the rsag pairs with the root anywhere: head (4e761bf) vs new, reduce, one run each side by side
AB=../adapt-2026-12-05e/ab.sh; O=ab-rsag.txt
export LIBDIR=/tmp/ab AB_TIMEOUT=900
$AB $O reduce flat 64 32768 balanced -R
$AB $O reduce flat 64 32768 noise -R
$AB $O reduce flat 64 32768 one_late -R
$AB $O reduce flat 64 32768 balanced -r 5
$AB $O reduce flat 64 32768 one_late -r 5
$AB $O reduce flat 48 32768 balanced -r 1
$AB $O reduce flat 48 32768 balanced -R
$AB $O reduce tree 64 32768 balanced -r 5
$AB $O reduce tree 64 32768 balanced -R
$AB $O reduce flat 256 32768 balanced -R
$AB $O reduce flat 256 32768 balanced -r 5
$AB $O reduce flat 64 1048576 balanced -r 5 -n 60
