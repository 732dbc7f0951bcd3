# SMPI runs of the interposition checks (bcast_check, coll_check, allgather_check,
# reduce_scatter_block_check, allgatherv_check, the state memo, online selection on
# the two-level tree, deferred decisions, tuning files, model files): simulated
# clusters of 1 to 64 ranks, libarcoll privatized per rank.  Included from
# test/adapt/CMakeLists.txt.
if(ARCOLL_HAVE_SMPI)
  set(_plat ${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.xml)
  set(_hosts ${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.hostfile)
  set(_lib ${CMAKE_BINARY_DIR}/smpi/adapt/libarcoll.so)
  set(_bin ${CMAKE_BINARY_DIR}/smpi/test/adapt/bcast_check)
  foreach(np 1 2 3 5 8 13 64)
    set(_modes correctness sites leaf errors)
    if(np EQUAL 64)
      set(_modes sites leaf) # the 1 MiB correctness sweep is too slow to simulate at 64
    endif()
    foreach(mode IN LISTS _modes)
      set(_env)
      if(mode STREQUAL "leaf") # binomial-tree positions: the adaptive binomial mode
        set(_env ${CMAKE_COMMAND} -E env ARCOLL_BCAST_ALGORITHM=adaptive)
      elseif(mode STREQUAL "sites") # the lateness exchange under auto's algorithms
        set(_env ${CMAKE_COMMAND} -E env ARCOLL_LATE_ORDER=on)
      endif()
      add_test(NAME adapt.smpi.${mode}.np${np}
        COMMAND ${_env} smpirun -np ${np} -platform ${_plat} -hostfile ${_hosts}
          --cfg=smpi/privatize-libs:${_lib} --log=root.thres:warning
          --cfg=smpi/simulate-computation:no ${_bin} ${mode})
      set_tests_properties(adapt.smpi.${mode}.np${np} PROPERTIES LABELS smpi TIMEOUT 120
        RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "bcast_check ${mode} P=${np}: OK")
    endforeach()
  endforeach()
  # every interposed collective (8 KiB "large" messages): auto at 1, 5, 8 ranks;
  # forced0..7 (every algorithm) at 5 and 8 ranks
  set(_cc ${CMAKE_BINARY_DIR}/smpi/test/adapt/coll_check)
  foreach(run auto:1 auto:5 auto:8 forced0:5 forced1:5 forced2:5 forced3:5 forced4:5 forced5:5
      forced6:5 forced7:5 forced0:8 forced1:8 forced2:8 forced3:8 forced4:8 forced5:8 forced6:8
      forced7:8)
    string(REPLACE ":" ";" _r ${run})
    list(GET _r 0 mode)
    list(GET _r 1 np)
    add_test(NAME adapt.smpi.coll.${mode}.np${np}
      COMMAND smpirun -np ${np} -platform ${_plat} -hostfile ${_hosts}
        --cfg=smpi/privatize-libs:${_lib} --log=root.thres:warning
        --cfg=smpi/simulate-computation:no ${_cc} ${mode} 8192)
    set_tests_properties(adapt.smpi.coll.${mode}.np${np} PROPERTIES LABELS smpi TIMEOUT 120
      RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "coll_check ${mode} P=${np}: OK")
  endforeach()
  # two ranks per host: MPI_COMM_TYPE_SHARED groups them, so the native
  # candidate (SMPI's own bcast / reduce / allreduce) is measured and kept
  # where faster (collectives/native.h)
  foreach(np 8 13)
    add_test(NAME adapt.smpi.coll.auto.two_ranks_per_host.np${np}
      COMMAND ${CMAKE_COMMAND} -E env ARCOLL_DEBUG=1
        smpirun -np ${np} -platform ${_plat}
        -hostfile ${CMAKE_CURRENT_SOURCE_DIR}/two_ranks_per_host.hostfile
        --cfg=smpi/privatize-libs:${_lib} --log=root.thres:warning
        --cfg=smpi/simulate-computation:no ${_cc} auto 8192)
    set_tests_properties(adapt.smpi.coll.auto.two_ranks_per_host.np${np} PROPERTIES LABELS smpi
      TIMEOUT 120 RESOURCE_LOCK mpi
      PASS_REGULAR_EXPRESSION "native/0=.*coll_check auto P=${np}: OK")
  endforeach()
  # MPI_Allgather: auto and every algorithm forced at P = 1, 2, 3, 5, 8, 13, 64
  set(_ag ${CMAKE_BINARY_DIR}/smpi/test/adapt/allgather_check)
  foreach(cfg "1:2000" "2:2000" "3:2000" "5:2000" "8:2000" "13:2000" "64:300")
    string(REPLACE ":" ";" _c ${cfg})
    list(GET _c 0 np)
    list(GET _c 1 big)
    foreach(mode auto forced0 forced1 forced2 forced3)
      add_test(NAME adapt.smpi.allgather.${mode}.np${np}
        COMMAND smpirun -np ${np} -platform ${_plat} -hostfile ${_hosts}
          --cfg=smpi/privatize-libs:${_lib} --log=root.thres:warning
          --cfg=smpi/simulate-computation:no ${_ag} ${mode} ${big})
      set_tests_properties(adapt.smpi.allgather.${mode}.np${np} PROPERTIES LABELS smpi
        TIMEOUT 300 RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "allgather_check ${mode} P=${np}: OK")
    endforeach()
  endforeach()
  # MPI_Reduce_scatter_block: auto and every algorithm forced at P = 1 .. 64
  set(_rsb ${CMAKE_BINARY_DIR}/smpi/test/adapt/reduce_scatter_block_check)
  foreach(cfg "1:2000" "2:2000" "3:2000" "5:2000" "8:2000" "13:1000" "64:100")
    string(REPLACE ":" ";" _c ${cfg})
    list(GET _c 0 np)
    list(GET _c 1 big)
    foreach(mode auto forced0 forced1 forced2)
      add_test(NAME adapt.smpi.reduce_scatter_block.${mode}.np${np}
        COMMAND smpirun -np ${np} -platform ${_plat} -hostfile ${_hosts}
          --cfg=smpi/privatize-libs:${_lib} --log=root.thres:warning
          --cfg=smpi/simulate-computation:no ${_rsb} ${mode} ${big})
      set_tests_properties(adapt.smpi.reduce_scatter_block.${mode}.np${np} PROPERTIES
        LABELS smpi TIMEOUT 300 RESOURCE_LOCK mpi
        PASS_REGULAR_EXPRESSION "reduce_scatter_block_check ${mode} P=${np}: OK")
    endforeach()
  endforeach()
  # MPI_Allgatherv: auto and every algorithm forced at P = 2, 5, 13; auto
  # alone at P = 1, 3, 8 and 64 (small data)
  set(_agv ${CMAKE_BINARY_DIR}/smpi/test/adapt/allgatherv_check)
  foreach(cfg "1:500:auto" "2:1000:all" "3:500:auto" "5:1000:all" "8:500:auto" "13:500:all"
          "64:50:auto")
    string(REPLACE ":" ";" _c ${cfg})
    list(GET _c 0 np)
    list(GET _c 1 big)
    list(GET _c 2 which)
    set(_modes auto)
    if(which STREQUAL "all")
      set(_modes auto forced0 forced1 forced2 forced3 forced6)
    endif()
    foreach(mode ${_modes})
      add_test(NAME adapt.smpi.allgatherv.${mode}.np${np}
        COMMAND smpirun -np ${np} -platform ${_plat} -hostfile ${_hosts}
          --cfg=smpi/privatize-libs:${_lib} --log=root.thres:warning
          --cfg=smpi/simulate-computation:no ${_agv} ${mode} ${big})
      set_tests_properties(adapt.smpi.allgatherv.${mode}.np${np} PROPERTIES LABELS smpi
        TIMEOUT 300 RESOURCE_LOCK mpi
        PASS_REGULAR_EXPRESSION "allgatherv_check ${mode} P=${np}: OK")
    endforeach()
  endforeach()
  foreach(np 5 13)
    add_test(NAME adapt.smpi.coll.late_order.np${np}
      COMMAND ${CMAKE_COMMAND} -E env ARCOLL_LATE_ORDER=on
        smpirun -np ${np} -platform ${_plat} -hostfile ${_hosts}
        --cfg=smpi/privatize-libs:${_lib} --log=root.thres:warning
        --cfg=smpi/simulate-computation:no ${_cc} auto 8192)
    set_tests_properties(adapt.smpi.coll.late_order.np${np} PROPERTIES LABELS smpi TIMEOUT 120
      RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "coll_check auto P=${np}: OK")
  endforeach()
  # The state memo under SMPI (privatized per rank, no threads): communicators
  # freed and made again with other orders / one rank, at 5 ranks.
  add_test(NAME adapt.smpi.comm_memo.np5
    COMMAND smpirun -np 5 -platform ${_plat} -hostfile ${_hosts}
      --cfg=smpi/privatize-libs:${_lib} --log=root.thres:warning
      --cfg=smpi/simulate-computation:no ${CMAKE_BINARY_DIR}/smpi/test/adapt/comm_memo_check 40 nothreads)
  set_tests_properties(adapt.smpi.comm_memo.np5 PROPERTIES LABELS smpi TIMEOUT 120
    RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "comm_memo_check: [0-9]+ checks, 0 failures")
  # Online selection where the model is wrong: the two-level tree with 160:1
  # uplinks (bench/README.md "Platforms"), 64 ranks over 4 leaf switches. The kept
  # algorithm must be the fastest by the test's own simulated-time measurement.
  # Allreduce at 1 MiB (rabenseifner and the rings): at 64 KiB round 0 holds
  # rabenseifner and its far twin alone, which rabenseifner's halving steps
  # rule out here (collectives/online_steps.h), so nothing else is measured.
  set(_tplat ${CMAKE_SOURCE_DIR}/tools/platforms/bench/tree1024.xml)
  set(_thosts ${CMAKE_SOURCE_DIR}/tools/platforms/bench/tree1024.smpi-hosts)
  set(_oc ${CMAKE_BINARY_DIR}/smpi/test/adapt/online_check)
  foreach(run reduce:65536 allreduce:1048576 bcast:1048576)
    string(REPLACE ":" ";" _r ${run})
    list(GET _r 0 _coll)
    list(GET _r 1 _bytes)
    # bcast: the rounds' decisions 2 calls after them, not 16 (adapt/decision.h
    # ARCOLL_ONLINE_STREAM_LAG), so that the 10 extra calls see the refinement
    set(_lag)
    if(_coll STREQUAL "bcast")
      set(_lag ARCOLL_ONLINE_LAG=2)
    endif()
    add_test(NAME adapt.smpi.online.${_coll}.np64
      COMMAND ${CMAKE_COMMAND} -E env ARCOLL_ONLINE_CANDIDATES=4 ARCOLL_ONLINE_TRIALS=2 ${_lag}
        ARCOLL_ONLINE_REFINE=3 ARCOLL_ONLINE_CONFIRM=0
        ARCOLL_LATE_ORDER=off # bcast: exploration would wait for the first lateness summary
        ARCOLL_MODEL=${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.model.json
        smpirun -np 64 -platform ${_tplat} -hostfile ${_thosts}
        --cfg=smpi/privatize-libs:${_lib} --log=root.thres:warning
        --cfg=smpi/simulate-computation:no ${_oc} ${_coll} ${_bytes} 4 2 10 1 3)
    set_tests_properties(adapt.smpi.online.${_coll}.np64 PROPERTIES LABELS smpi TIMEOUT 300
      RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "online_check ${_coll} P=64: OK")
  endforeach()
  # Deferred decision (adapt/decision.h), on the tree platform above where the
  # model's choice for a 32 KiB reduce to root 1 (rsag, 1.349 ms per call) loses
  # to binomial (1.328 ms; deterministic simulated time): with a lag of 5 calls
  # every rank runs rsag for exactly the 5 calls after round 0, then binomial.
  # (At 64 KiB rsag wins since its positions are the ranks' own - 1.90 against
  # 2.08 ms; from the root they crossed the uplinks: 3.2 ms, collectives/reduce.h.)
  add_test(NAME adapt.smpi.online.deferred.reduce.np64
    COMMAND ${CMAKE_COMMAND} -E env ARCOLL_ONLINE_CANDIDATES=4 ARCOLL_ONLINE_TRIALS=2
      ARCOLL_ONLINE_REFINE=3 ARCOLL_ONLINE_CONFIRM=0 ARCOLL_ONLINE_LAG=5
      ARCOLL_MODEL=${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.model.json
      smpirun -np 64 -platform ${_tplat} -hostfile ${_thosts}
      --cfg=smpi/privatize-libs:${_lib} --log=root.thres:warning --cfg=smpi/test:0
      --cfg=smpi/simulate-computation:no ${_oc} reduce 32768 4 2 14 0 3 lag=5)
  set_tests_properties(adapt.smpi.online.deferred.reduce.np64 PROPERTIES LABELS smpi TIMEOUT 300
    RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "online_check reduce P=64: OK [(]6 exploration calls in blocks of 2, kept binomial[)]")
  # tuning files under SMPI: 16 ranks, the simulated choice written and rerun
  add_test(NAME adapt.smpi.tuning.roundtrip.bcast.np16
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tuning_roundtrip.sh
      ${CMAKE_CURRENT_BINARY_DIR}/smpi_tuning.bcast bcast 262144 16
      smpirun -np 16 -platform ${_plat} -hostfile ${_hosts}
      --cfg=smpi/privatize-libs:${_lib} --log=root.thres:warning ${_oc})
  set_tests_properties(adapt.smpi.tuning.roundtrip.bcast.np16 PROPERTIES LABELS smpi TIMEOUT 240
    RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "tuning_roundtrip bcast P=16: OK")
  # auto with a model file (the SMPI-calibrated model of this platform)
  set(_model ${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.model.json)
  if(EXISTS ${_model})
    add_test(NAME adapt.smpi.coll.auto_model.np8
      COMMAND ${CMAKE_COMMAND} -E env ARCOLL_MODEL=${_model}
        smpirun -np 8 -platform ${_plat} -hostfile ${_hosts}
        --cfg=smpi/privatize-libs:${_lib} --log=root.thres:warning
        --cfg=smpi/simulate-computation:no ${_cc} auto 8192)
    set_tests_properties(adapt.smpi.coll.auto_model.np8 PROPERTIES LABELS smpi TIMEOUT 120
      RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "coll_check auto P=8: OK")
  endif()
endif()
