# coll_loop (test/apps/coll_loop.c, the program tools/adapt-bench.sh times) on
# every collective it knows, through libarcoll: every element it checks right
# (its RESULT line says errors=0) under MPICH at 3 ranks (LD_PRELOAD, 0-200 us
# noise before each call) and under SMPI at 13 ranks (linked and privatised,
# one late rank), 30 calls of 4 KiB blocks.
set(_cl_colls bcast reduce gather allreduce scatter allgather reduce_scatter_block alltoall)
foreach(c IN LISTS _cl_colls)
  add_test(NAME adapt.coll_loop.${c}.np3
    COMMAND ${ARCOLL_MPIEXEC} -n 3 -genv LD_PRELOAD $<TARGET_FILE:arcoll>
      $<TARGET_FILE:coll_loop> -c ${c} -m 4096 -n 30 -s noise)
  set_tests_properties(adapt.coll_loop.${c}.np3 PROPERTIES LABELS mpi TIMEOUT 120
    RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "RESULT coll=${c} .* errors=0")
  if(ARCOLL_HAVE_SMPI)
    add_test(NAME adapt.smpi.coll_loop.${c}.np13
      COMMAND smpirun -np 13 -platform ${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.xml
        -hostfile ${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.hostfile
        --cfg=smpi/privatize-libs:${CMAKE_BINARY_DIR}/smpi/adapt/libarcoll.so
        --log=root.thres:warning ${CMAKE_BINARY_DIR}/smpi/test/apps/coll_loop_arcoll
        -c ${c} -m 4096 -n 30 -s one_late)
    set_tests_properties(adapt.smpi.coll_loop.${c}.np13 PROPERTIES LABELS smpi TIMEOUT 120
      RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "RESULT coll=${c} .* errors=0")
  endif()
endforeach()
