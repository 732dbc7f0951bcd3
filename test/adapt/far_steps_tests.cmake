# A far-first twin ruled out by its near twin's halving steps (collectives/online_steps.h):
# SMPI two-level tree (160:1 uplinks), 64 ranks, 32 KiB allreduce, 20 calls, balanced, every
# element checked.  Ranks in order (16 per leaf switch): rabenseifner's steps bound
# rabenseifner_far at over 1.5x its time, so it never runs and rabenseifner is kept; placed
# round-robin over four leaf switches (tree64_round_robin.smpi-hosts: rank r on switch r % 4)
# the bound stays below, the far twin is measured and kept (SMPI: 0.089 s against 0.54 per
# call summed over ranks).
if(ARCOLL_HAVE_SMPI)
  arcoll_loop_smpi_test(adapt.smpi.far_steps.allreduce.in_order.tree64 64 ${_loop} TREE
    EXPECT "online: allreduce P=64 .*: rabenseifner's halving steps bound rabenseifner_far at >= .*: not measured"
      "!rabenseifner_far/" "RESULT coll=allreduce .* errors=0"
    ARGS -c allreduce -m 32768 -n 20 -s balanced)
  arcoll_loop_smpi_test(adapt.smpi.far_steps.allreduce.round_robin.tree64 64 ${_loop} TREE
    HOSTS ${CMAKE_CURRENT_SOURCE_DIR}/tree64_round_robin.smpi-hosts
    EXPECT "online: allreduce P=64 .*: rabenseifner's halving steps bound rabenseifner_far at >= .*: measured"
      "online: allreduce P=64 .* round 0 measured .* -> rabenseifner_far/" "RESULT coll=allreduce .* errors=0"
    ARGS -c allreduce -m 32768 -n 20 -s balanced)
endif()
