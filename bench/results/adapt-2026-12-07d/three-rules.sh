#!/bin/bash
# The three rules side by side (three.sh) -> three-rules.txt
cd "$(dirname "$0")" || exit 1
T=./three.sh; O=three-rules.txt
$T $O flat 64 bcast 32768 seed001
$T $O tree 64 bcast 32768 seed001
$T $O tree 64 bcast 32768 one_late -R
$T $O tree 64 bcast 32768 eight_late -R
$T $O flat 64 bcast 32768 moving -R
$T $O flat 64 bcast 8192 moving -R
$T $O flat 64 bcast 32768 one_late
$T $O tree 64 bcast 32768 one_late
$T $O tree 64 bcast 32768 eight_late
$T $O flat 64 bcast 32768 eight_late
$T $O tree 64 bcast 32768 moving -R
$T $O flat 64 bcast 8192 one_late -R
