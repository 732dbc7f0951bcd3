# coll_loop (test/apps/coll_loop.c, the program tools/adapt-bench.sh times) on
# every collective it knows, through libarcoll: every element it checks right
# (its RESULT line says errors=0) under MPICH at 3 ranks (LD_PRELOAD, 0-200 us
# noise before each call) and under SMPI at 13 ranks (linked and privatised,
# one late rank), 30 calls of 4 KiB blocks (v-variants: 2, 4, 6 KiB, coll_loop_v.h).
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
