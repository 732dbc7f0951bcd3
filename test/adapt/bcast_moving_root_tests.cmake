# Broadcasts whose root moves (coll_loop -R: root c mod P at call c), through test/apps/coll_loop
# under SMPI (arcoll_loop_smpi_test, coll_loop_tests.cmake).

# 32 KiB, 64 ranks, balanced, the host's CPU time left out, every element checked.  Round 0 measures
# binomial too (collectives/online_slots.h arcoll_explorer_moving_root) and keeps the chain on the
# ranks' mean periods (adapt/decision.h; on the max, the tail's 1.9 ms, scatter_rdb was kept at
# 0.0105 s a call summed over ranks); the decision and the lateness exchange of calls 26-33 apply at
# calls whose root may be far ahead of the decider / coordinator, so they apply later, at its
# next call as the root (ARCOLL_ROOTED_MOVED_CALLS, lateness.h ARCOLL_LATE_APPLY_MOVED_CALLS) and no
# rank waits there: from call 11 on every call under 0.01 s (0.0038; applied at once, 0.05-0.06 at
# each).
if(ARCOLL_HAVE_SMPI)
  arcoll_loop_smpi_test(adapt.smpi.bcast_moving_root_streams.np64 64 ${_loop} NO_COMPUTE
    EXPECT "online: bcast P=64 .* round 0 measured .*binomial/8192=.* chain/8192=.* -> chain/8192"
      "!CALL (1[1-9]|[2-9][0-9]) inside_sum=(0\\.0[1-9]|0\\.[1-9]|[1-9])"
      "RESULT coll=bcast .* errors=0"
    ARGS -c bcast -m 32768 -n 100 -s balanced -R -p)
endif()
