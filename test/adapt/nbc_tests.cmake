# Nonblocking and persistent collectives of libarcoll (adapt/nbc.h); included
# by CMakeLists.txt here in both builds (the programs), tests registered by
# the MPICH build (the SMPI ones run the nested build's nbc_check).
#   adapt.nbc.on.np{2,3,4}            nbc_check: Ibcast ... Ibarrier, Iallgatherv, Ialltoallv
#                                     (+ _c) in arcoll, every root, derived types, MPI_IN_PLACE,
#                                     zero and irregular counts, non-commutative op
#   adapt.nbc.off.np2                 ARCOLL_NONBLOCKING=off: all of it through MPICH
#   adapt.nbc.bad_value.np2           ARCOLL_NONBLOCKING=maybe stops MPI_Init with the message
#   adapt.nbc.persistent.np{2,3,4}    nbc_persist_check: MPI-4 *_init started 24 times
#   adapt.smpi.nbc.np{1,2,3,5,8,13,64} nbc_check under SMPI
#   adapt.nbc.grid.np{2,3}, adapt.smpi.nbc.grid.np{64,130,256}
#                                     nbc_grid_check: 64 KiB iallreduce / ibcast; above 128
#                                     ranks the two-level direct schedules (at most 5 rounds)
arcoll_check_program(nbc_check)
arcoll_check_program(nbc_persist_check)
arcoll_check_program(nbc_grid_check)
if(ARCOLL_SMPI_BUILD)
  return()
endif()
foreach(np 2 3 4)
  arcoll_adapt_mpi_test(adapt.nbc.on.np${np} ${np} PROGRAM nbc_check ARGS on)
  set_tests_properties(adapt.nbc.on.np${np} PROPERTIES
    PASS_REGULAR_EXPRESSION "nbc_check on P=${np}: OK")
  arcoll_adapt_mpi_test(adapt.nbc.persistent.np${np} ${np} PROGRAM nbc_persist_check)
  set_tests_properties(adapt.nbc.persistent.np${np} PROPERTIES
    PASS_REGULAR_EXPRESSION "nbc_persist_check P=${np}: OK")
endforeach()
arcoll_adapt_mpi_test(adapt.nbc.off.np2 2 PROGRAM nbc_check ARGS off ENV ARCOLL_NONBLOCKING=off)
set_tests_properties(adapt.nbc.off.np2 PROPERTIES PASS_REGULAR_EXPRESSION "nbc_check off P=2: OK")
arcoll_adapt_mpi_test(adapt.nbc.bad_value.np2 2 PROGRAM nbc_check ARGS on
  ENV ARCOLL_NONBLOCKING=maybe)
set_tests_properties(adapt.nbc.bad_value.np2 PROPERTIES PASS_REGULAR_EXPRESSION
  "ARCOLL_NONBLOCKING='maybe' is not valid; use on .* or off")
foreach(np 2 3)
  arcoll_adapt_mpi_test(adapt.nbc.grid.np${np} ${np} PROGRAM nbc_grid_check ARGS 0)
  set_tests_properties(adapt.nbc.grid.np${np} PROPERTIES
    PASS_REGULAR_EXPRESSION "nbc_grid_check P=${np}: OK")
endforeach()
if(ARCOLL_HAVE_SMPI)
  foreach(run 64:0 130:1 256:1) # 130 = 10 x 13, 256 = 16 x 16 (nbc_grid.c)
    string(REPLACE ":" ";" _r ${run})
    list(GET _r 0 np)
    list(GET _r 1 grid)
    arcoll_adapt_smpi_test(adapt.smpi.nbc.grid.np${np} ${np}
      ${CMAKE_BINARY_DIR}/smpi/test/adapt/nbc_grid_check ARGS ${grid})
    set_tests_properties(adapt.smpi.nbc.grid.np${np} PROPERTIES
      PASS_REGULAR_EXPRESSION "nbc_grid_check P=${np}: OK")
  endforeach()
  foreach(np 1 2 3 5 8 13 64)
    arcoll_adapt_smpi_test(adapt.smpi.nbc.np${np} ${np}
      ${CMAKE_BINARY_DIR}/smpi/test/adapt/nbc_check ARGS on)
    set_tests_properties(adapt.smpi.nbc.np${np} PROPERTIES
      PASS_REGULAR_EXPRESSION "nbc_check on P=${np}: OK")
  endforeach()
endif()
