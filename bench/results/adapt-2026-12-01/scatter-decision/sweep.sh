#!/usr/bin/env bash
for plat in flat tree; do for scen in balanced one_late eight_late moving noise late_root seed001; do
  ./run.sh $plat scatter 8 $scen
  for L in 3 4 6 8 12; do ./run.sh $plat scatter 8 $scen ARCOLL_ONLINE_LAG=$L; done
done; done
