# Non-commutative reductions while late-rank orders are in play.  coll_loop -o
# (test/apps/coll_loop_affine.h): a user-defined op that composes affine maps mod 2^32, created
# with commute = 0, so the contributions must be combined in rank order;
# every checked pair is compared with a reference folded in rank order by the program itself.
# The lateness exchange orders a commutative reduce's ranks (late ranks on leaves,
# adapt/late_order.h); a non-commutative one must keep rank order.  -o mixed alternates the two
# ops at one call site (odd calls affine), so the tracker has applied an order - "8 late,
# changed" - when the affine calls run.  The negative control declares the same op commutative
# (false): the library may then reorder, and the check must find wrong pairs.  SMPI flat cluster,
# 32 KiB, eight ranks 1 ms late before each of 40 calls (arcoll_loop_smpi_test in
# coll_loop_tests.cmake); MPICH at 3 ranks with 0-200 us noise.
foreach(c reduce allreduce)
  arcoll_adapt_mpi_test(adapt.coll_loop.${c}.affine.np3 3 PROGRAM coll_loop
    ARGS -c ${c} -m 4096 -n 30 -s noise -o affine)
  set_tests_properties(adapt.coll_loop.${c}.affine.np3 PROPERTIES
    PASS_REGULAR_EXPRESSION "RESULT coll=${c} .* errors=0")
endforeach()
if(ARCOLL_HAVE_SMPI)
  foreach(_np 64 256)
    arcoll_loop_smpi_test(adapt.smpi.noncommutative_late.reduce_mixed.np${_np} ${_np} ${_loop}
      EXPECT "lateness exchange 1 \\(calls 0\\.\\.1\\) applied after call 4: .root 0 .* -> 8 late, changed"
        "RESULT coll=reduce .* errors=0"
      ARGS -c reduce -m 32768 -n 40 -s eight_late -o mixed)
  endforeach()
  # every rooted collective ordered (ARCOLL_LATE_ORDER=on), the affine op in every call
  arcoll_loop_smpi_test(adapt.smpi.noncommutative_late.reduce_affine_order_on.np64 64 ${_loop}
    ENV ARCOLL_LATE_ORDER=on
    EXPECT "RESULT coll=reduce .* errors=0"
    ARGS -c reduce -m 32768 -n 40 -s eight_late -o affine)
  arcoll_loop_smpi_test(adapt.smpi.noncommutative_late.allreduce_mixed.np64 64 ${_loop}
    EXPECT "RESULT coll=allreduce .* errors=0"
    ARGS -c allreduce -m 32768 -n 40 -s eight_late -o mixed)
  arcoll_loop_smpi_test(adapt.smpi.noncommutative_late.declared_commutative.np64 64 ${_loop}
    STATUS 1 # coll_loop's exit status when it found wrong elements
    EXPECT "coll_loop: rank 0 call [0-9]+: [1-9][0-9]* wrong elements \\(reduce with the affine op"
      "RESULT coll=reduce .* errors=[1-9]"
    ARGS -c reduce -m 32768 -n 40 -s eight_late -o affine_declared_commutative)
endif()
