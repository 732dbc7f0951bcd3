# Online selection and tuning files under real MPICH, and the errors at
# MPI_Init for bad settings (online, tuning, algorithm names, model files);
# included by CMakeLists.txt after arcoll_adapt_mpi_test is defined.

# Online selection under real MPICH: every rank runs the same candidates, each
# `trials` calls in a row, and keeps the same one; results checked (no timing
# assertion on wall-clock time).  Sizes where the built-in model keeps >= 2
# candidates within 2x of its best (at 64 KiB, P = 3, only ring is left).
foreach(run allreduce:3:16384 reduce:4:4096 bcast:3:100000)
  string(REPLACE ":" ";" _r ${run})
  list(GET _r 0 _coll)
  list(GET _r 1 _np)
  list(GET _r 2 _bytes)
  arcoll_adapt_mpi_test(adapt.online.${_coll}.np${_np} ${_np} PROGRAM online_check
    ARGS ${_coll} ${_bytes} 3 2 4 0 3 ENV ARCOLL_ONLINE_CANDIDATES=3 ARCOLL_ONLINE_TRIALS=2
    ARCOLL_ONLINE_SKEW=0 # descheduling of 4 busy-polling ranks on 2 cores is skew
    ARCOLL_ONLINE_CONFIRM=0 # the rounds alone (the confirmation: adapt.smpi.online_confirm.*)
    ARCOLL_LATE_ORDER=off) # bcast >= 8 KiB: exploration waits for the first lateness summary
  set_tests_properties(adapt.online.${_coll}.np${_np} PROPERTIES
    PASS_REGULAR_EXPRESSION "online_check ${_coll} P=${_np}: OK")
endforeach()
# Tuning files (adapt/tuning.h): the kept choice written at MPI_Finalize, read
# back, and rerun from the first call without exploration.
foreach(run bcast:3:100000 reduce:4:4096)
  string(REPLACE ":" ";" _r ${run})
  list(GET _r 0 _coll)
  list(GET _r 1 _np)
  list(GET _r 2 _bytes)
  add_test(NAME adapt.tuning.roundtrip.${_coll}.np${_np}
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tuning_roundtrip.sh
      ${CMAKE_CURRENT_BINARY_DIR}/tuning.${_coll} ${_coll} ${_bytes} ${_np}
      ${ARCOLL_MPIEXEC} -n ${_np} -genv LD_PRELOAD $<TARGET_FILE:arcoll> $<TARGET_FILE:online_check>)
  set_tests_properties(adapt.tuning.roundtrip.${_coll}.np${_np} PROPERTIES LABELS mpi TIMEOUT 240
    RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "tuning_roundtrip ${_coll} P=${_np}: OK")
endforeach()
# Bad tuning settings: error at MPI_Init naming the variable, the file and the problem.
arcoll_adapt_mpi_test(adapt.tuning.missing_file.np2 2 PROGRAM online_check
  ARGS allreduce 64 3 2 1 0 3 ENV ARCOLL_TUNING=/nonexistent/tuning.json)
set_tests_properties(adapt.tuning.missing_file.np2 PROPERTIES PASS_REGULAR_EXPRESSION
  "ARCOLL_TUNING='/nonexistent/tuning.json' cannot be used: /nonexistent/tuning.json: cannot open")
arcoll_adapt_mpi_test(adapt.tuning.not_json.np2 2 PROGRAM online_check
  ARGS allreduce 64 3 2 1 0 3 ENV ARCOLL_TUNING=${CMAKE_CURRENT_SOURCE_DIR}/online_check.c)
set_tests_properties(adapt.tuning.not_json.np2 PROPERTIES PASS_REGULAR_EXPRESSION
  "ARCOLL_TUNING='[^']*online_check.c' cannot be used: .*not a JSON tuning file")
arcoll_adapt_mpi_test(adapt.tuning.out_dir_missing.np2 2 PROGRAM online_check
  ARGS allreduce 64 3 2 1 0 3 ENV ARCOLL_TUNING_OUT=/nonexistent/dir/tuning.json)
set_tests_properties(adapt.tuning.out_dir_missing.np2 PROPERTIES PASS_REGULAR_EXPRESSION
  "ARCOLL_TUNING_OUT='/nonexistent/dir/tuning.json' cannot be written: directory '/nonexistent/dir' does not exist")
# A bad value of ARCOLL_ONLINE_CANDIDATES: error at MPI_Init naming it.
arcoll_adapt_mpi_test(adapt.online.bad_env.np2 2 PROGRAM online_check
  ARGS allreduce 64 3 2 1 0 3 ENV ARCOLL_ONLINE_CANDIDATES=0)
set_tests_properties(adapt.online.bad_env.np2 PROPERTIES PASS_REGULAR_EXPRESSION
  "ARCOLL_ONLINE_CANDIDATES='0' is not valid")
arcoll_adapt_mpi_test(adapt.online.bad_refine.np2 2 PROGRAM online_check
  ARGS allreduce 64 3 2 1 0 3 ENV ARCOLL_ONLINE_REFINE=9)
set_tests_properties(adapt.online.bad_refine.np2 PROPERTIES PASS_REGULAR_EXPRESSION
  "ARCOLL_ONLINE_REFINE='9' is not valid")
arcoll_adapt_mpi_test(adapt.online.bad_confirm.np2 2 PROGRAM online_check
  ARGS allreduce 64 3 2 1 0 3 ENV ARCOLL_ONLINE_CONFIRM=yes)
set_tests_properties(adapt.online.bad_confirm.np2 PROPERTIES PASS_REGULAR_EXPRESSION
  "ARCOLL_ONLINE_CONFIRM='yes' is not valid")
# Unknown algorithm name / unreadable model file: error at MPI_Init naming the
# variable (file) and listing the valid names.
arcoll_adapt_mpi_test(adapt.coll.bad_reduce_algorithm.np2 2 PROGRAM coll_check ARGS errors
  ENV ARCOLL_REDUCE_ALGORITHM=bogus)
set_tests_properties(adapt.coll.bad_reduce_algorithm.np2 PROPERTIES PASS_REGULAR_EXPRESSION
  "ARCOLL_REDUCE_ALGORITHM='bogus' is not valid; use one of: auto .*pmpi .*, binomial, rsag, rsag_far, chain")
arcoll_adapt_mpi_test(adapt.coll.bad_model.np2 2 PROGRAM coll_check ARGS errors
  ENV ARCOLL_MODEL=/nonexistent/arcoll-model.json)
set_tests_properties(adapt.coll.bad_model.np2 PROPERTIES PASS_REGULAR_EXPRESSION
  "ARCOLL_MODEL='/nonexistent/arcoll-model.json' cannot be used")
# a file that is not a model (this C source)
arcoll_adapt_mpi_test(adapt.coll.bad_model_json.np2 2 PROGRAM coll_check ARGS errors
  ENV ARCOLL_MODEL=${CMAKE_CURRENT_SOURCE_DIR}/coll_check.c)
set_tests_properties(adapt.coll.bad_model_json.np2 PROPERTIES PASS_REGULAR_EXPRESSION
  "ARCOLL_MODEL='[^']*coll_check.c' cannot be used")
# Deferred decisions (adapt/decision.h) under real MPICH: with ARCOLL_ONLINE_LAG
# the decision applies L calls after round 0 on every rank (names compared per
# call, results checked) - bcast's taken by its root; a decision still pending
# at MPI_Finalize is completed there (no hang, the job ends with OK).
# (allreduce at 32 B: the program's own 8-byte MPI_Allreduce of its timings
# would share the 8 B size class and interleave with the measured calls)
foreach(run scatter:4:8:6 allreduce:3:32:4 scatter:3:8:40 bcast:4:8:2 bcast:3:4096:5)
  string(REPLACE ":" ";" _r ${run})
  list(GET _r 0 _coll)
  list(GET _r 1 _np)
  list(GET _r 2 _bytes)
  list(GET _r 3 _lag)
  arcoll_adapt_mpi_test(adapt.online.deferred_lag${_lag}.${_coll}.np${_np} ${_np} PROGRAM online_check
    ARGS ${_coll} ${_bytes} 2 2 12 0 0 lag=${_lag} ENV ARCOLL_ONLINE_CANDIDATES=2 ARCOLL_ONLINE_TRIALS=2
    ARCOLL_ONLINE_SKEW=0 ARCOLL_ONLINE_CONFIRM=0 ARCOLL_ONLINE_LAG=${_lag})
  set_tests_properties(adapt.online.deferred_lag${_lag}.${_coll}.np${_np} PROPERTIES
    PASS_REGULAR_EXPRESSION "online_check ${_coll} P=${_np}: OK")
endforeach()
arcoll_adapt_mpi_test(adapt.online.bad_lag.np2 2 PROGRAM online_check
  ARGS allreduce 64 3 2 1 0 3 ENV ARCOLL_ONLINE_LAG=-1)
set_tests_properties(adapt.online.bad_lag.np2 PROPERTIES PASS_REGULAR_EXPRESSION
  "ARCOLL_ONLINE_LAG='-1' is not valid")
