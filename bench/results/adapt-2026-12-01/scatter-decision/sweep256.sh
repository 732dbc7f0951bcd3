#!/usr/bin/env bash
for scen in balanced one_late eight_late noise moving seed001; do
  NP=256 ./run.sh flat scatter 8 $scen
  for L in 4 6 8; do NP=256 ./run.sh flat scatter 8 $scen ARCOLL_ONLINE_LAG=$L; done
done
for scen in balanced one_late eight_late; do
  ./run.sh flat scatter 32768 $scen
  ./run.sh flat scatter 32768 $scen ARCOLL_ONLINE_LAG=6
done
