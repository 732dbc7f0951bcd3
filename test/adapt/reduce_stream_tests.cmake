# Reduces whose round 0 measures the chain as it streams (1 MiB: rsag and the
# chain / 8 KiB, binomial left to the 2x rule, collectives/online.c), through
# test/apps/coll_loop under SMPI (arcoll_loop_smpi_test, coll_loop_tests.cmake).

# Such a reduce cannot run the tolerant tree, so it tracks no lateness: nothing
# would take the order, and the exchange's call would make every rank wait for
# the root there (adapt/late_order.c reduce_tree_may_run).  SMPI flat cluster,
# 64 ranks, one rank 1 ms late, 24 calls (the decision deferred to call 20),
# every element checked.
if(ARCOLL_HAVE_SMPI)
  arcoll_loop_smpi_test(adapt.smpi.reduce_untracked_chain.np64 64 ${_loop}
    EXPECT "online: reduce P=64 .* -> chain/" "!lateness exchange" "!binomial/"
      "RESULT coll=reduce .* errors=0"
    ARGS -c reduce -m 1048576 -n 24 -s one_late)
endif()

# Its round-0 decision is deferred with the chain held (collectives/online.h
# stream_lag, online_limits.h ARCOLL_ONLINE_REDUCE_STREAM_LAG): no call after
# the chain's first (its fill after rsag) waits for the root's backlog or
# refills the chain: from call 4 every call under 0.09 s summed over ranks
# (0.0589 a call, the deadline's call 20 0.0667); decided in the round's last
# call, calls 4 and 5 cost about 0.13 each.  SMPI flat cluster, 64 ranks, balanced, 1 MiB, 24 calls,
# the host's CPU time left out (the per-call sums the same on every machine),
# every element checked.
if(ARCOLL_HAVE_SMPI)
  arcoll_loop_smpi_test(adapt.smpi.reduce_chain_deferred.np64 64 ${_loop} NO_COMPUTE
    EXPECT "online: reduce P=64 bytes=[0-9]+: round 0's decision deferred 16 calls, chain/8192 running meanwhile"
      "online: reduce P=64 .* round 0 measured rsag/0=.* chain/8192=.* -> chain/8192"
      "!CALL ([4-9]|1[0-9]|2[0-3]) inside_sum=(0\\.(09|[1-9])|[1-9])"
      "RESULT coll=reduce .* errors=0"
    ARGS -c reduce -m 1048576 -n 24 -s balanced -p)
endif()

# ... but not where the root moves (coll_loop -R: root c mod P; online.h
# root_moved): the chain's order moves with the root and refills in every call,
# so round 0 decides in its last call and rsag runs from call 5 (0.132 s a call
# summed over ranks; the chain held would take 0.202).  Same platform and size.
if(ARCOLL_HAVE_SMPI)
  arcoll_loop_smpi_test(adapt.smpi.reduce_chain_moving_root.np64 64 ${_loop} NO_COMPUTE
    EXPECT "!round 0's decision deferred"
      "online: reduce P=64 .* round 0 measured rsag/0=.* chain/8192=.* -> rsag/0"
      "!CALL ([6-9]|1[0-9]) inside_sum=(0\\.(1[5-9]|[2-9])|[1-9])"
      "RESULT coll=reduce .* errors=0"
    ARGS -c reduce -m 1048576 -n 20 -s balanced -R -p)
endif()

# Its late ranks from the times outside (adapt/late_outside_exchange.h): the
# ranks' mean times outside and shortest periods of the chain's calls 4-7 in one
# nonblocking allreduce, applied at call 23; from call 24 the chain runs with
# the eight late ranks next to the root (from root 5: positions 1-8) and the
# ranks upstream of them stream at the balanced pace: calls 25-28 about 0.06 s
# summed over ranks, 0.112 in rank order (every rank between a late one and
# the root waits for it).  SMPI flat cluster, 64 ranks, eight ranks 1 ms late,
# 1 MiB, 29 calls, the host's CPU time left out, every element checked.
if(ARCOLL_HAVE_SMPI)
  arcoll_loop_smpi_test(adapt.smpi.reduce_chain_late_outside.np64 64 ${_loop} NO_COMPUTE
    EXPECT "online: reduce P=64 .* round 0 measured rsag/0=.* -> chain/8192"
      "reduce P=64: times outside \\(mean of 4 calls, .*\\) leave 8 rank\\(s\\) late for the chain's root end: [0-9]+ \\(0.001 s\\)"
      "!CALL 2[5-8] inside_sum=(0\\.(0[89]|[1-9])|[1-9])"
      "RESULT coll=reduce .* errors=0"
    ARGS -c reduce -m 1048576 -n 29 -s eight_late -r 5 -p)
endif()

# ... and on the two-level tree (16-host leaves, one 1 Gb/s uplink each) the
# chain's stream is bound by the uplinks, which the model does not describe
# (arcoll_outside_links_bound): the late ranks keep their places (next to
# the root the chain crossed every uplink twice: 40 calls 20.07 -> 29.70 s
# summed inside).  Same loop, 26 calls.
if(ARCOLL_HAVE_SMPI)
  arcoll_loop_smpi_test(adapt.smpi.reduce_chain_late_outside_tree.np64 64 ${_loop} TREE NO_COMPUTE
    EXPECT "reduce P=64: the chain's period .* bound by links the model does not see, its 8 late rank\\(s\\) keep their places"
      "reduce P=64: times outside .* leave 0 rank\\(s\\) late"
      "RESULT coll=reduce .* errors=0"
    ARGS -c reduce -m 1048576 -n 26 -s eight_late -r 5)
endif()
