# MPI_Gatherv(_c) and MPI_Scatterv(_c) through libarcoll (included by
# CMakeLists.txt in both builds): gatherv_check and scatterv_check, one
# source (vblocks_check.c, VB_SCATTER = 0 / 1).  Tests: auto, every
# algorithm forced (forced0..1 = the table's linear, binomial), errors and
# pass-through, a bad algorithm name, late-rank orders on; MPICH 2-4 ranks,
# SMPI 1..13 ranks, scatterv auto at 64.
foreach(_vb gatherv:0 scatterv:1)
  string(REPLACE ":" ";" _v ${_vb})
  list(GET _v 0 _n)
  list(GET _v 1 _s)
  arcoll_check_program(${_n}_check SOURCE vblocks_check.c allgather allgatherv gatherv)
  target_compile_definitions(${_n}_check PRIVATE VB_SCATTER=${_s})
endforeach()
if(ARCOLL_SMPI_BUILD)
  return()
endif()

# auto, both algorithms forced (MPICH 2-4; SMPI at P = 2, 5, 13, auto alone at
# 1, 3, 8 with less data), errors, a bad algorithm name (check_tests.cmake);
# late-rank orders on: the binomial trees over the tracker's orders
# scatterv auto also at 64 (10 s); gatherv there takes over 300 s of host
# time (its check's many small messages to each root: SimGrid's mailbox
# matching was 80 % of a 32-rank run's profile)
foreach(_n gatherv scatterv)
  set(_p64)
  if(_n STREQUAL "scatterv")
    set(_p64 "64:50:auto")
  endif()
  arcoll_check_tests(${_n} ${_n}_check 2 5000 "linear, binomial"
    "1:500:auto" "2:1000:all" "3:500:auto" "5:500:all" "8:200:auto" "13:100:all" ${_p64})
  arcoll_adapt_mpi_test(adapt.${_n}.late_order.np4 4 PROGRAM ${_n}_check ARGS auto 500
    ENV ARCOLL_LATE_ORDER=on)
  set_tests_properties(adapt.${_n}.late_order.np4 PROPERTIES
    PASS_REGULAR_EXPRESSION "${_n}_check auto P=4: OK")
  if(ARCOLL_HAVE_SMPI)
    arcoll_adapt_smpi_test(adapt.smpi.${_n}.late_order.np13 13
      ${CMAKE_BINARY_DIR}/smpi/test/adapt/${_n}_check ARGS auto 100 ENV ARCOLL_LATE_ORDER=on)
    set_tests_properties(adapt.smpi.${_n}.late_order.np13 PROPERTIES
      PASS_REGULAR_EXPRESSION "${_n}_check auto P=13: OK")
  endif()
endforeach()
