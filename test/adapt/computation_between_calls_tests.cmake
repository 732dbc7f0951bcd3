# Round 0's choice where every rank computes between the calls (coll_loop -w 1e-3: 1 ms before
# each call), through test/apps/coll_loop under SMPI (arcoll_loop_smpi_test, coll_loop_tests.cmake).
# The band within which the sums over ranks decide is taken on the max period less the time every
# rank spent outside (collectives/online.c arcoll_explorer_decide_periods, `outside_s`).

if(ARCOLL_HAVE_SMPI)
  # 32 KiB reduce under 0-200 us noise: rsag's critical path is shorter than binomial's beyond
  # the shared 1 ms (periods 1.28 and 1.30 ms), so it wins though binomial's sum inside is 4x
  # smaller (with the band on the whole period binomial won and the loop took 1.038x rsag's)
  arcoll_loop_smpi_test(adapt.smpi.reduce_computation_between_calls.np64 64 ${_loop} NO_COMPUTE
    EXPECT "online: reduce P=64 .* round 0 measured rsag/0=.* binomial/0=.* -> rsag/0"
      "RESULT coll=reduce .* errors=0"
    ARGS -c reduce -m 32768 -n 60 -s noise -w 1e-3)
  # 8 B bcast, rank 24 late by 1 ms: the root decides without the late ranks' records, whose time
  # outside is unknown, so the band is on the whole period: linear's period 10 us above knomial's
  # is a tie and its sum inside, 13x smaller (knomial's late rank holds its subtree), decides
  arcoll_loop_smpi_test(adapt.smpi.bcast_late_computation_between_calls.np64 64 ${_loop} NO_COMPUTE
    EXPECT "online: bcast P=64 .* round 0 measured linear/0=.* knomial/0=.* -> linear/0"
      "RESULT coll=bcast .* errors=0"
    ARGS -c bcast -m 8 -n 60 -s one_late -w 1e-3)
endif()
