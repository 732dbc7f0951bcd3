# coll_loop (test/apps/coll_loop.c, the program tools/adapt-bench.sh times) on
# every collective it knows, through libarcoll: every element it checks right
# (its RESULT line says errors=0) under MPICH at 3 ranks (LD_PRELOAD, 0-200 us
# noise before each call) and under SMPI at 13 ranks (linked and privatised,
# one late rank), 30 calls of 4 KiB blocks (v-variants: 2, 4, 6 KiB, coll_loop_v.h).
# arcoll_loop_smpi_test(NAME NP PROGRAM [TREE] [SMPI_TEST_DELAYS] [NO_COMPUTE] [HOSTS FILE] [STATUS N]
#                       [ENV VAR=VALUE...] EXPECT REGEX... ARGS ARG...):
# one SMPI run of PROGRAM (built with smpicc; libarcoll privatised) on NP ranks of the
# benchmark platform - the flat 10 Gb/s cluster, or with TREE the two-level tree with
# 160:1 uplinks (tools/platforms/bench/), its hosts in order or those of HOSTS - under
# ARCOLL_DEBUG=1, the ENV settings and the cluster256 model, passing when it exits with STATUS
# (default 0) and expect_lines.sh finds every REGEX in a line of its output
# (!REGEX: in none); SMPI's injected test delays are off (--cfg=smpi/test:0) unless
# SMPI_TEST_DELAYS; NO_COMPUTE leaves the host's CPU time out of simulated time
# (--cfg=smpi/simulate-computation:no: the same times on every machine).  Label smpi, 300 s, the mpi lock.  A REGEX writes `;` (CMake's list
# separator) as `$<SEMICOLON>`, which add_test turns back into `;`.
function(arcoll_loop_smpi_test name np program)
  cmake_parse_arguments(A "TREE;SMPI_TEST_DELAYS;NO_COMPUTE" "HOSTS;STATUS" "ENV;EXPECT;ARGS" ${ARGN})
  set(status)
  if(DEFINED A_STATUS)
    set(status --status ${A_STATUS})
  endif()
  set(xml flat1024.xml)
  set(hosts ${CMAKE_SOURCE_DIR}/tools/platforms/bench/flat1024.hostfile)
  if(A_TREE)
    set(xml tree1024.xml)
    set(hosts ${CMAKE_SOURCE_DIR}/tools/platforms/bench/tree1024.smpi-hosts)
  endif()
  if(A_HOSTS)
    set(hosts ${A_HOSTS})
  endif()
  set(delays --cfg=smpi/test:0)
  if(A_SMPI_TEST_DELAYS)
    set(delays)
  endif()
  if(A_NO_COMPUTE)
    list(APPEND delays --cfg=smpi/simulate-computation:no)
  endif()
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND} -E env ARCOLL_DEBUG=1 ${A_ENV}
      ARCOLL_MODEL=${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.model.json
      bash ${CMAKE_CURRENT_SOURCE_DIR}/expect_lines.sh ${status} ${A_EXPECT} --
      smpirun -np ${np} -platform ${CMAKE_SOURCE_DIR}/tools/platforms/bench/${xml}
      -hostfile ${hosts}
      --cfg=smpi/privatize-libs:${CMAKE_BINARY_DIR}/smpi/adapt/libarcoll.so ${delays}
      --log=root.thres:warning ${program} ${A_ARGS})
  set_tests_properties(${name} PROPERTIES LABELS smpi TIMEOUT 300 RESOURCE_LOCK mpi)
endfunction()
set(_loop ${CMAKE_BINARY_DIR}/smpi/test/apps/coll_loop_arcoll)

set(_cl_colls bcast reduce gather allreduce scatter allgather reduce_scatter_block alltoall
  gatherv scatterv allgatherv alltoallv reduce_scatter)
foreach(c IN LISTS _cl_colls)
  arcoll_adapt_mpi_test(adapt.coll_loop.${c}.np3 3 PROGRAM coll_loop
    ARGS -c ${c} -m 4096 -n 30 -s noise)
  set_tests_properties(adapt.coll_loop.${c}.np3 PROPERTIES
    PASS_REGULAR_EXPRESSION "RESULT coll=${c} .* errors=0")
  if(ARCOLL_HAVE_SMPI)
    arcoll_adapt_smpi_test(adapt.smpi.coll_loop.${c}.np13 13
      ${CMAKE_BINARY_DIR}/smpi/test/apps/coll_loop_arcoll COMPUTE
      ARGS -c ${c} -m 4096 -n 30 -s one_late)
    set_tests_properties(adapt.smpi.coll_loop.${c}.np13 PROPERTIES TIMEOUT 120
      PASS_REGULAR_EXPRESSION "RESULT coll=${c} .* errors=0")
  endif()
endforeach()

# The rooted collectives with the root rotating (coll_loop -R: root c mod P at call c, a panel
# broadcast's pattern), every element checked: MPICH 3 ranks with noise, SMPI 13 ranks with one rank
# late; and rsag forced at 32 KiB (its positions are the ranks' own, the root anywhere: reduce.h).
foreach(c bcast reduce gather scatter)
  arcoll_adapt_mpi_test(adapt.coll_loop.${c}.rotating_root.np3 3 PROGRAM coll_loop
    ARGS -c ${c} -m 4096 -n 30 -s noise -R)
  set_tests_properties(adapt.coll_loop.${c}.rotating_root.np3 PROPERTIES
    PASS_REGULAR_EXPRESSION "RESULT coll=${c} .* errors=0")
  if(ARCOLL_HAVE_SMPI)
    arcoll_adapt_smpi_test(adapt.smpi.coll_loop.${c}.rotating_root.np13 13
      ${CMAKE_BINARY_DIR}/smpi/test/apps/coll_loop_arcoll COMPUTE
      ARGS -c ${c} -m 4096 -n 30 -s one_late -R)
    set_tests_properties(adapt.smpi.coll_loop.${c}.rotating_root.np13 PROPERTIES TIMEOUT 120
      PASS_REGULAR_EXPRESSION "RESULT coll=${c} .* errors=0")
  endif()
endforeach()
if(ARCOLL_HAVE_SMPI)
  arcoll_adapt_smpi_test(adapt.smpi.coll_loop.reduce_rsag.rotating_root.np13 13
    ${CMAKE_BINARY_DIR}/smpi/test/apps/coll_loop_arcoll COMPUTE
    ARGS -c reduce -m 32768 -n 30 -s noise -R ENV ARCOLL_REDUCE_ALGORITHM=rsag)
  set_tests_properties(adapt.smpi.coll_loop.reduce_rsag.rotating_root.np13 PROPERTIES TIMEOUT 120
    PASS_REGULAR_EXPRESSION "RESULT coll=reduce .* errors=0")
endif()

# Small reduces whose late ranks are detached by their tree parent (collectives/reduce_detach.h,
# adapt/detach_state.h): MPICH 4 ranks, 8 B, binomial forced, a late rank moving every 10 calls
# (rank 3 first: its parent is rank 2), every element checked; SMPI flat cluster, 64 ranks, 8 B,
# the cluster256 model's knomial (radix 8): with eight ranks 1 ms late for 40 calls the seven whose
# parent is not the root are detached; balanced, none; the late rank moving every 10 calls for
# 100 calls, then nobody late for 100 (`settled`): the ranks it visited stay detached (a detachment
# never ends: bench/notes/adaptive-layer-2026-12-01-to-02.md "Reduce: late ranks detached by their parent").  Every element checked.
arcoll_adapt_mpi_test(adapt.coll_loop.reduce_detach.np4 4 PROGRAM coll_loop
  ARGS -c reduce -m 8 -n 60 -s moving ENV ARCOLL_REDUCE_ALGORITHM=binomial)
set_tests_properties(adapt.coll_loop.reduce_detach.np4 PROPERTIES
  PASS_REGULAR_EXPRESSION "RESULT coll=reduce .* errors=0")
if(ARCOLL_HAVE_SMPI)
  foreach(_case "eight_late;40;: 7 ranks sent to the root directly" "balanced;40;!ranks sent to the root directly"
      "settled;200;: ([2-9]|[1-9][0-9]) ranks sent to the root directly")
    list(GET _case 0 _scen)
    list(GET _case 1 _calls)
    list(GET _case 2 _expect)
    arcoll_loop_smpi_test(adapt.smpi.reduce_detach.${_scen}.np64 64 ${_loop}
      EXPECT "reduce P=64 bytes=8 root 0: knomial \\(k 8\\) detaches ranks late" "${_expect}"
        "RESULT coll=reduce .* errors=0"
      ARGS -c reduce -m 8 -n ${_calls} -s ${_scen})
  endforeach()
endif()

# The online choice confirmed in the steady state (collectives/online_confirm.h): SMPI
# flat 10 Gb/s cluster, 64 ranks, 32 KiB gather, rank 24 late by 1 ms before
# every call.  With one warm-up call (ARCOLL_ONLINE_WARMUP=1) round 0 measures
# binomial in its pipeline's fill and keeps linear (period within 5 % of
# binomial's, smaller sum over ranks); the confirmation times both by the
# last rank out and keeps binomial (1.80 vs 2.37 ms per call, simulated:
# deterministic), every element checked across the switches.  With the
# default (3 warm-up calls for gather from 8 KiB) round 0 keeps binomial.
if(ARCOLL_HAVE_SMPI)
  # arcoll_confirm_test(NAME SCENARIO WARMUP REGEX...): that 40-call loop under
  # ARCOLL_DEBUG=1 and ARCOLL_ONLINE_WARMUP=WARMUP (empty: unset), every REGEX
  # matching a line of its output.
  function(arcoll_confirm_test name scenario warmup)
    arcoll_loop_smpi_test(${name} 64 ${_loop} SMPI_TEST_DELAYS ENV ARCOLL_ONLINE_WARMUP=${warmup}
      EXPECT ${ARGN} "RESULT coll=gather .* errors=0" ARGS -c gather -m 32768 -n 40 -s ${scenario})
  endfunction()
  arcoll_confirm_test(adapt.smpi.online_confirm.gather.np64 one_late 1
    "round 0 measured binomial/0=.* linear/0=.* -> linear/0, confirming it in the steady state against binomial"
    "confirmation, last rank out: linear/0 span [0-9.e-]+s, binomial/0 span [0-9.e-]+s -> binomial/0")
  # The same loop, balanced: round 0 keeps binomial on its period (2.17 vs
  # 2.40 ms), as the model predicted (2.11 vs 2.51 ms): no confirmation
  # (arcoll_explorer_model_agrees), the round-0 line ends with the choice.
  arcoll_confirm_test(adapt.smpi.online_confirm.model_agrees.gather.np64 balanced ""
    "round 0 measured binomial/0=.* linear/0=.* -> binomial/0$")
  # The one-late loop with the default warm-up: binomial measured past its
  # pipeline's fill, kept on its period, no confirmation
  # (ARCOLL_ONLINE_GATHER_WARMUP).
  arcoll_confirm_test(adapt.smpi.online_warmup.gather.np64 one_late ""
    "round 0 measured binomial/0=.* linear/0=.* -> binomial/0$")
endif()

# Bcast's and scatter's online decisions taken by the root (adapt/decision.h): SMPI flat
# cluster, 16 ranks, 8 B, a late rank (1 ms) moving every 10 calls; the
# allreduce way (ARCOLL_ONLINE_LAG=0) makes every rank wait at the decision
# for the late rank's backlog of the exploration's calls, the root's way
# leaves its record out: less than half the time inside, summed over ranks.
if(ARCOLL_HAVE_SMPI)
  foreach(_coll bcast scatter) # both rooted: a non-root cannot run ahead of the root
    add_test(NAME adapt.smpi.rooted_decision.${_coll}.np16
      COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/rooted_decision_skips_late.sh
        ARCOLL_MODEL=${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.model.json
        smpirun -np 16 -platform ${CMAKE_SOURCE_DIR}/tools/platforms/bench/flat1024.xml
        -hostfile ${CMAKE_SOURCE_DIR}/tools/platforms/bench/flat1024.hostfile
        --cfg=smpi/privatize-libs:${CMAKE_BINARY_DIR}/smpi/adapt/libarcoll.so --cfg=smpi/test:0
        --log=root.thres:warning ${CMAKE_BINARY_DIR}/smpi/test/apps/coll_loop_arcoll
        -c ${_coll} -m 8 -n 60 -s moving)
    set_tests_properties(adapt.smpi.rooted_decision.${_coll}.np16 PROPERTIES LABELS smpi TIMEOUT 300
      RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "rooted_decision: OK")
  endforeach()
endif()

# Back-to-back bcasts seen as a stream: after the first lateness summary
# the exploration measures only the streaming configuration beside the
# tolerant tree (collectives/online_slots.h arcoll_explorer_stream_only), and
# the root postpones the online decision instead of waiting for the records
# of the ranks calls behind it (adapt/decision.h ARCOLL_ROOTED_POSTPONES) -
# the latter only where the summary found the arrivals quiet (adapt/lateness.h).
# SMPI flat cluster, 64 ranks, 32 KiB, 60 calls; balanced: both (the last
# postponement's deadline lies past the loop: the decision is completed at
# MPI_Finalize, the non-roots taking the postponements they had not
# reached); 0-200 us arrival noise: the stream-only exploration (its gaps
# are a few tree levels: adapt/late_pattern.h arcoll_late_near_stream), only
# the probe's postponement (adapt/decision.h ARCOLL_ONLINE_STREAM_LAG; the
# arrivals are not quiet), during which the binary tree, not the chain
# measured last, runs (collectives/online.h `hold_at`).  Every element checked.
if(ARCOLL_HAVE_SMPI)
  foreach(_case
      "balanced;calls back to back \\(first lateness summary\\): measuring chain/8192 and binary/8192 only;decision postponed 16 calls by root 0 \\(records in: [0-9]+ of 64, arrivals quiet\\);bcast call 10 root 0 \\(world rank 0\\) chain/8192"
      "noise;calls back to back, arrivals noisy \\(first lateness summary\\): measuring chain/8192 and binary/8192 only;decision postponed 14 calls by root 0 \\(records in: [0-9]+ of 64, probe\\);!arrivals quiet;bcast call 10 root 0 \\(world rank 0\\) binary/8192")
    list(GET _case 0 _scen)
    list(SUBLIST _case 1 -1 _pats)
    arcoll_loop_smpi_test(adapt.smpi.stream_decision.${_scen}.np64 64 ${_loop}
      EXPECT ${_pats} "RESULT coll=bcast .* errors=0" ARGS -c bcast -m 32768 -n 60 -s ${_scen})
  endforeach()
endif()

# Bcasts paced by their root (adapt/late_pattern.h arcoll_late_root_paced): the
# root 1 ms late before every call, the others straight back in; after the
# first lateness summary round 0 measures the chain only beside the tolerant
# binary tree's noted runs, the tree first (it keeps the tie) - not scatter_rdb,
# whose root waits for the allgather over the 1 Gb/s uplinks (0.42 s per
# call summed against 0.063).  SMPI two-level tree, 64 ranks, 32 KiB, 40
# calls, every element checked.  Both run at the root's period (0.0636 s
# summed against 0.0630): the host's CPU time is left out, or a machine where
# the library's own work costs more tips the tie (seen: chain 0.0583 in CI).
if(ARCOLL_HAVE_SMPI)
  arcoll_loop_smpi_test(adapt.smpi.root_paced.late_root.np64 64 ${_loop} TREE NO_COMPUTE
    EXPECT "calls paced by the root \\(first lateness summary\\): measuring binary/8192 and chain/8192 only"
      "round 0 measured binary/8192=.* chain/8192=.* -> binary/8192" "!scatter_rdb" "RESULT coll=bcast .* errors=0"
    ARGS -c bcast -m 32768 -n 40 -s late_root)
endif()

# Bcasts separated by a barrier are synchronised (adapt/lateness.h
# arcoll_late_synchronised): after the first lateness summary the
# exploration drops the streaming chain and the compressed algorithm, which
# the model rules out (collectives/online_slots.h arcoll_explorer_synchronised),
# (at 64 ranks the compressed one's latency floor is within 2x: it stays),
# and the root decides at the rooted lag's probe, the records being in
# (adapt/decision.h ARCOLL_ONLINE_STREAM_LAG).  With computation between the
# calls instead each rank enters in the order it left: not synchronised but a
# wavefront (adapt/late_pattern.h arcoll_late_wavefront), and round 0 measures the
# chain beside the tolerant binary tree only, not the log-step candidates.
# SMPI flat cluster, 64 ranks, 64 KiB / 32 KiB, every element checked.
if(ARCOLL_HAVE_SMPI)
  arcoll_loop_smpi_test(adapt.smpi.synchronised.barrier.np64 64
    ${CMAKE_BINARY_DIR}/smpi/test/apps/imbalanced_bcast_arcoll
    EXPECT "calls synchronised \\(first lateness summary\\): chain not measured"
      "!decision postponed" "online: bcast P=64 .* round 0 measured" "RESULT ranks=64 .* errors=0"
    ARGS -n 20 -m 65536 -l 0)
  arcoll_loop_smpi_test(adapt.smpi.synchronised.compute.np64 64 ${_loop}
    EXPECT "!calls synchronised" "!paced by the root"
      "calls a wavefront \\(first lateness summary\\): measuring chain/8192 and binary/8192 only"
      "online: bcast P=64 .* round 0 measured .*chain/" "!scatter_rdb" "RESULT coll=bcast .* errors=0"
    ARGS -c bcast -m 32768 -n 30 -s balanced -w 1e-3)
endif()

# The tolerant tree of a streaming bcast chosen by a trial (adapt/late_trees.h):
# 32 KiB, 64 ranks, one rank 1 ms late, 40 calls; on the flat cluster the
# binary tree wins the trial (0.0032 against binomial's 0.0062 s per call
# summed), on the two-level tree with 160:1 uplinks binomial (0.022 against
# 0.032); every element checked.
if(ARCOLL_HAVE_SMPI)
  foreach(_net "flat;;first" "tree;TREE;second")
    list(GET _net 0 _name)
    list(GET _net 1 _tree)
    list(GET _net 2 _winner)
    arcoll_loop_smpi_test(adapt.smpi.tolerant_trees.${_name}.np64 64 ${_loop} ${_tree} SMPI_TEST_DELAYS
      EXPECT "tolerant tree trial: 59 of 59 records after"
        "tolerant tree trial \\(calls from 10\\): first [0-9.e-]+ s, second [0-9.e-]+ s"
        "lateness exchange 2 .* tolerant tree ${_winner}$<SEMICOLON>" "RESULT coll=bcast .* errors=0"
      ARGS -c bcast -m 32768 -n 40 -s one_late)
  endforeach()
  # A late rank that moves at the trial's first call (10): its subtree falls
  # calls behind, and the wait for its records is cut when it has cost the
  # ranks that caught up with the root 8 of the trial's calls (adapt/late_trees.h
  # ARCOLL_TREES_WAIT_CALLS): the trial is void, nothing decided.
  arcoll_loop_smpi_test(adapt.smpi.tolerant_trees.moving.np64 64 ${_loop} SMPI_TEST_DELAYS
    EXPECT "tolerant tree trial: [0-9]+ of 59 records after [0-9.e-]+ s, void"
      "lateness exchange 2 .* tolerant tree void$<SEMICOLON>" "RESULT coll=bcast .* errors=0"
    ARGS -c bcast -m 32768 -n 40 -s moving)
endif()

# The first lateness exchange of a bcast waits for every record but 1 + P/32,
# then for the rest at most twice as long (adapt/late_first.h): seed 001's
# rank 32, loaded by ~3 ms per call, sends its records calls late; its
# record and its child's (rank 33, waiting for 32's data) are missing at the
# patience's end, only 32 is charged (adapt/lateness.c) and put on a leaf:
# position 35, whose parent has no other child, and rank 35 takes position
# 32 - not rank 33, which it held and which stays calls behind (order.c).
# Balanced, every record is in.  SMPI flat cluster, 64 ranks, 32 KiB, 40
# calls, every element checked.
if(ARCOLL_HAVE_SMPI)
  arcoll_loop_smpi_test(adapt.smpi.first_exchange.missing_charged.np64 64 ${_loop}
    EXPECT "first lateness exchange: 2 record\\(s\\) missing after [0-9.e-]+ s, charged"
      "lateness exchange 1 \\(calls 0\\.\\.1\\) applied after call 2: \\[root 0 t_level [0-9.e-]+ noise [0-9.e-]+: 32=[0-9.e-]+\\] -> 1 late"
      "bcast call 3 root 0 .* adaptive order: 0 1 .* 31 35 33 34 32 36 .* 62 63$"
      "RESULT coll=bcast .* errors=0"
    ARGS -c bcast -m 32768 -n 40 -s seed001)
  arcoll_loop_smpi_test(adapt.smpi.first_exchange.balanced.np64 64 ${_loop}
    EXPECT "!first lateness exchange: .* missing"
      "lateness exchange 1 \\(calls 0\\.\\.1\\) applied after call 2: .* -> 0 late"
      "RESULT coll=bcast .* errors=0"
    ARGS -c bcast -m 32768 -n 40 -s balanced)
endif()

# Back-to-back reduces (data toward the root) track lateness from 8 KiB with
# one exchange only (adapt/lateness.h arcoll_late_exchanges_max): its summary
# is applied 3 calls after it starts (the non-roots run ahead of the root and
# wait for it), the late rank then takes a leaf of its own subtree in the
# binomial tree (adapt/order.c), which the online selection measures with
# that order - its runs wait for it (adapt/dispatch.h arcoll_late_tree_warmup:
# at P = 256 binomial measured before the order lost to rsag) - and keeps.
# SMPI flat cluster, 64 and 256 ranks, 32 KiB, rank 3P/8 1 ms late, 40 calls;
# every element checked.
if(ARCOLL_HAVE_SMPI)
  foreach(_np 64 256)
    math(EXPR _late "3 * ${_np} / 8")
    arcoll_loop_smpi_test(adapt.smpi.reduce_late_once.np${_np} ${_np} ${_loop}
      EXPECT "lateness exchange 1 \\(calls 0\\.\\.1\\) applied after call 4: .root 0 .* ${_late}=[0-9.e-]+.* -> 1 late, changed, no further exchange"
        "!lateness exchange 2"
        "online: reduce P=${_np} .* -> binomial/" "!online: reduce P=${_np} .* -> rsag"
        "RESULT coll=reduce .* errors=0"
      ARGS -c reduce -m 32768 -n 40 -s one_late)
  endforeach()
endif()

# coll_loop -s one_late -L RANK (the steady states of tools/adapt-recovery.sh): the named rank,
# not 3P/8, is the one the reduce's lateness exchange finds late.  SMPI flat cluster, 16 ranks,
# 32 KiB, rank 13 1 ms late, 12 calls; every element checked.
if(ARCOLL_HAVE_SMPI)
  arcoll_loop_smpi_test(adapt.smpi.coll_loop.one_late_named_rank.np16 16 ${_loop}
    EXPECT "lateness exchange 1 \\(calls 0\\.\\.1\\) applied after call 4: .root 0 .* 13=[0-9.e-]+.* -> 1 late, changed"
      "!applied after call 4: .root 0 .* 6=[0-9.e-]+"
      "RESULT coll=reduce .* errors=0"
    ARGS -c reduce -m 32768 -n 12 -s one_late -L 13)
endif()

# ARCOLL_LATE_DETACH=on (adapt/order.h arcoll_history_detached): the reduce's eight late
# ranks (1 ms) all detached - they send their results to the root, which takes them after
# its tree children - t_level 22 us, lateness ~0.48 ms each (i x t_level below it for
# i <= 8); every element checked.  SMPI flat cluster, 64 ranks, 32 KiB, 40 calls.
if(ARCOLL_HAVE_SMPI)
  arcoll_loop_smpi_test(adapt.smpi.reduce_detached.np64 64 ${_loop} ENV ARCOLL_LATE_DETACH=on
    EXPECT "lateness exchange 1 \\(calls 0\\.\\.1\\) applied after call 4: .* -> 8 late, changed, no further exchange .*$<SEMICOLON> 8 detached$"
      "online: reduce P=64 .* -> binomial/"
      "RESULT coll=reduce .* errors=0"
    ARGS -c reduce -m 32768 -n 40 -s eight_late)
endif()

# Late sets carried by tuning files (adapt/tuning.h "lateness"), written by a
# run with ARCOLL_TUNING_OUT ("run") or by `arcoll tune` from a profile run
# (libarcoll_profiler, "profile"): the file lists the late rank, a rerun with
# ARCOLL_TUNING starts with it, so its calls before the first lateness
# summary run with the rank on a leaf (bcast: calls 0-2, seed 001's rank 32;
# reduce: calls 0-4, rank 24 1 ms late) and take less time inside
# (simulated: deterministic); the bcast's file given to a run where another
# rank is late (stale) costs at most 1 % more than no file.  40 calls each;
# every element checked.
if(ARCOLL_HAVE_SMPI)
  set(_profile "profile:$<TARGET_FILE:arcoll_cli>:${CMAKE_BINARY_DIR}/smpi/profiler/libarcoll_profiler.so:${CMAKE_BINARY_DIR}/smpi/test/apps/coll_loop_prof")
  foreach(_case "bcast;seed001;32;3;one_late;run" "reduce;one_late;24;5;-;run" "bcast;seed001;32;3;-;profile")
    list(GET _case 0 _coll)
    list(GET _case 1 _scen)
    list(GET _case 2 _rank)
    list(GET _case 3 _first)
    list(GET _case 4 _stale)
    list(GET _case 5 _from)
    set(_source run)
    if(_from STREQUAL "profile")
      set(_source ${_profile})
    endif()
    add_test(NAME adapt.smpi.late_tuning.${_from}.${_coll}.np64
      COMMAND ${CMAKE_COMMAND} -E env
        ARCOLL_MODEL=${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.model.json
        bash ${CMAKE_CURRENT_SOURCE_DIR}/late_tuning_rerun.sh
        ${CMAKE_CURRENT_BINARY_DIR}/late_tuning.${_from}.${_coll} ${_coll} 32768 64 ${_scen} ${_rank} ${_first}
        ${_stale} ${_source} ${CMAKE_BINARY_DIR}/smpi/adapt/libarcoll.so
        ${CMAKE_BINARY_DIR}/smpi/test/apps/coll_loop_arcoll --
        smpirun -np 64 -platform ${CMAKE_SOURCE_DIR}/tools/platforms/bench/flat1024.xml
        -hostfile ${CMAKE_SOURCE_DIR}/tools/platforms/bench/flat1024.hostfile --cfg=smpi/test:0
        --log=root.thres:warning)
    set_tests_properties(adapt.smpi.late_tuning.${_from}.${_coll}.np64 PROPERTIES LABELS smpi
      TIMEOUT 300 RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "late_tuning_rerun ${_coll} P=64: OK")
  endforeach()
endif()

# The rooted decision's patience (adapt/decision_held.h): an 8 B bcast / scatter
# from root 0, rank 24 late by 1 ms per call; its binomial subtree 25..31 waited
# for it in round 0's trees and its records come a lateness per call late. The
# root decides without those 8 records once none came for the patience, charges
# the 7 below 24 to the trees that held them, and keeps linear (every element
# checked). A late rank's exposure: the late rank moving every 10 calls - rank
# 11 in round 0, a leaf of the trees measured, which then hold nobody and
# measure cheaper than linear; its record still missing past the round's
# periods and the threshold, every tree that holds ranks is charged its mean
# depth x that lateness, and linear is kept. Balanced: every record in, nothing
# charged. SMPI flat cluster, 64 ranks, 40 calls.
if(ARCOLL_HAVE_SMPI)
  set(_rd_expect_one_late "decided by root 0 without 8 of 64 records, 7 charged to the trees that held them")
  set(_rd_expect_moving "[0-9]+ of 64 records missing .* a late rank's exposure charged")
  foreach(_c bcast scatter)
    foreach(_s one_late moving)
      arcoll_loop_smpi_test(adapt.smpi.rooted_decision.${_c}.${_s}.np64 64 ${_loop}
        EXPECT "online: ${_c} P=64 .*: ${_rd_expect_${_s}}"
          "online: ${_c} P=64 .* round 0 measured linear/0=.* -> linear/0$"
          "RESULT coll=${_c} .* errors=0"
        ARGS -c ${_c} -m 8 -n 40 -s ${_s})
    endforeach()
    arcoll_loop_smpi_test(adapt.smpi.rooted_decision.${_c}.balanced.np64 64 ${_loop}
      EXPECT "!decided by root .* without" "!exposure charged"
        "online: ${_c} P=64 .* round 0 measured "
        "RESULT coll=${_c} .* errors=0"
      ARGS -c ${_c} -m 8 -n 40 -s balanced)
  endforeach()
endif()

# ARCOLL_LATE_CHAIN=on (adapt/late_chain.h): once a second lateness summary left the same
# late ranks (4, 12, ..., 60), the 32 KiB bcast runs the chain with the late ranks as leaves of
# their rank neighbours (order: the others from the root in rank order, the late ones last;
# collectives/tree_extra.h arcoll_tree_chain_runs, one run); every element checked.  SMPI, 64 ranks, eight ranks 1 ms late, 60
# calls, the flat cluster and the two-level tree; with ARCOLL_LATE_CHAIN=off no call runs it.
if(ARCOLL_HAVE_SMPI)
  foreach(_plat flat tree)
    set(_tree)
    if(_plat STREQUAL tree)
      set(_tree TREE)
    endif()
    arcoll_loop_smpi_test(adapt.smpi.bcast_chain_leaves.${_plat}64 64 ${_loop} ${_tree}
      ENV ARCOLL_LATE_CHAIN=on
      EXPECT "lateness exchange 2 .* -> 8 late, unchanged, [0-4] unreported, steady 1,"
        "bcast call [0-9]+ root 0 .world rank 0. chain/[0-9]+ adaptive order: 0 1 2 3 5 6 7 8 9 10 11 13 .* 59 61 62 63 4 12 20 28 36 44 52 60$"
        "RESULT coll=bcast .* errors=0"
      ARGS -c bcast -m 32768 -n 60 -s eight_late)
  endforeach()
  arcoll_loop_smpi_test(adapt.smpi.bcast_chain_leaves.off64 64 ${_loop}
    ENV ARCOLL_LATE_CHAIN=off
    EXPECT "!chain/[0-9]+ adaptive order" "!chain/[0-9]+ .runs of" "RESULT coll=bcast .* errors=0"
    ARGS -c bcast -m 32768 -n 60 -s eight_late)
  # The default, ARCOLL_LATE_CHAIN=runs: on the two-level tree the tolerant tree trial chooses
  # binomial, and once the late set (rank 24) held, the chain of runs of 8 takes its place, rank
  # 24 a leaf (collectives/tree_extra.h arcoll_tree_chain_runs); on the flat cluster the binary
  # tree wins the trial and no call runs it.  One rank 1 ms late, 60 calls, every element checked.
  arcoll_loop_smpi_test(adapt.smpi.bcast_chain_runs.tree64 64 ${_loop} TREE
    EXPECT "lateness exchange 2 .* tolerant tree second; -> 1 late, unchanged, [0-4] unreported, steady 1,"
      "bcast call [0-9]+ root 0 .world rank 0. chain/[0-9]+ .runs of 8. adaptive order: 0 1 2 .* 23 25 26 .* 62 63 24$"
      "!chain/[0-9]+ adaptive order" "RESULT coll=bcast .* errors=0"
    ARGS -c bcast -m 32768 -n 60 -s one_late)
  arcoll_loop_smpi_test(adapt.smpi.bcast_chain_runs.flat64 64 ${_loop}
    EXPECT "lateness exchange 2 .* tolerant tree first; -> 1 late, unchanged"
      "!chain/[0-9]+ .runs of" "RESULT coll=bcast .* errors=0"
    ARGS -c bcast -m 32768 -n 60 -s one_late)
endif()
