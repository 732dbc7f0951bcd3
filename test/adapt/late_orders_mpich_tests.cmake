# Late-rank orders under real MPICH (LD_PRELOAD): coll_loop at 3 ranks, rank 1 (3P/8)
# busy-waiting 5 ms before each of 30 calls, 16 KiB, ARCOLL_LATE_ORDER=on so every rooted
# collective tracks lateness and orders its tree (at 4 ranks on this machine's 2 cores the
# exchanges mostly found nobody late); bcast, scatter, reduce (MPI_SUM, and -o mixed: a
# non-commutative op every other call, test/apps/coll_loop_affine.h) and gather, every element
# checked against coll_loop's own formulas.  Timing on this machine is not controlled (3 ranks
# on 2 cores), so the tests assert the results, not which order ran; ARCOLL_DEBUG=1 prints the exchanges
# (ctest -V).  The same orders at 64 and 256 simulated ranks, with the orders asserted:
# late_orders_p256_tests.cmake, noncommutative_late_tests.cmake.
foreach(_run bcast:sum scatter:sum reduce:sum reduce:mixed gather:sum)
  string(REPLACE ":" ";" _r ${_run})
  list(GET _r 0 _c)
  list(GET _r 1 _op)
  set(_args -c ${_c} -m 16384 -n 30 -s one_late -d 0.005)
  if(NOT _op STREQUAL "sum")
    list(APPEND _args -o ${_op})
  endif()
  arcoll_adapt_mpi_test(adapt.coll_loop.late_order.${_c}_${_op}.np3 3 PROGRAM coll_loop
    ENV ARCOLL_LATE_ORDER=on ARCOLL_DEBUG=1 ARGS ${_args})
  set_tests_properties(adapt.coll_loop.late_order.${_c}_${_op}.np3 PROPERTIES
    PASS_REGULAR_EXPRESSION "RESULT coll=${_c} .* errors=0")
endforeach()
