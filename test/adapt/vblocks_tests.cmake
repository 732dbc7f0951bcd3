# MPI_Gatherv(_c) and MPI_Scatterv(_c) through libarcoll (included by
# CMakeLists.txt in both builds): gatherv_check and scatterv_check, one
# source (vblocks_check.c, VB_SCATTER = 0 / 1).  Tests: auto, every
# algorithm forced (forced0..1 = the table's linear, binomial), errors and
# pass-through, a bad algorithm name, late-rank orders on; MPICH 2-4 ranks,
# SMPI 1..13 ranks.
foreach(_vb gatherv:0 scatterv:1)
  string(REPLACE ":" ";" _v ${_vb})
  list(GET _v 0 _n)
  list(GET _v 1 _s)
  add_executable(${_n}_check vblocks_check.c)
  target_compile_definitions(${_n}_check PRIVATE VB_SCATTER=${_s})
  target_include_directories(${_n}_check PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/../collectives/allgather
    ${CMAKE_CURRENT_SOURCE_DIR}/../collectives/allgatherv
    ${CMAKE_CURRENT_SOURCE_DIR}/../collectives/gatherv)
  if(ARCOLL_SMPI_BUILD) # linked with libarcoll (smpirun privatizes it)
    target_compile_definitions(${_n}_check PRIVATE ARCOLL_TEST_LINKED=1)
    target_link_libraries(${_n}_check PRIVATE -Wl,--no-as-needed arcoll -Wl,--as-needed
      arcoll_collectives arcoll_mpi ${CMAKE_DL_LIBS})
  else() # libarcoll by LD_PRELOAD; collectives/ for the algorithm tables
    target_link_libraries(${_n}_check PRIVATE arcoll_collectives arcoll_mpi ${CMAKE_DL_LIBS})
  endif()
endforeach()
if(ARCOLL_SMPI_BUILD)
  return()
endif()

foreach(_n gatherv scatterv)
  string(TOUPPER ${_n} _N)
  foreach(np 2 3 4)
    foreach(mode auto forced0 forced1 errors)
      arcoll_adapt_mpi_test(adapt.${_n}.${mode}.np${np} ${np} PROGRAM ${_n}_check
        ARGS ${mode} 5000)
      set_tests_properties(adapt.${_n}.${mode}.np${np} PROPERTIES
        PASS_REGULAR_EXPRESSION "${_n}_check ${mode} P=${np}: OK")
    endforeach()
  endforeach()
  arcoll_adapt_mpi_test(adapt.${_n}.bad_algorithm.np2 2 PROGRAM ${_n}_check ARGS errors
    ENV ARCOLL_${_N}_ALGORITHM=bogus)
  set_tests_properties(adapt.${_n}.bad_algorithm.np2 PROPERTIES PASS_REGULAR_EXPRESSION
    "ARCOLL_${_N}_ALGORITHM='bogus' is not valid; use one of: auto .*pmpi .*, linear, binomial")
  # late-rank orders on: the binomial trees over the tracker's orders
  arcoll_adapt_mpi_test(adapt.${_n}.late_order.np4 4 PROGRAM ${_n}_check ARGS auto 500
    ENV ARCOLL_LATE_ORDER=on)
  set_tests_properties(adapt.${_n}.late_order.np4 PROPERTIES
    PASS_REGULAR_EXPRESSION "${_n}_check auto P=4: OK")
endforeach()

if(NOT ARCOLL_HAVE_SMPI)
  return()
endif()
# SMPI: auto and both algorithms forced at P = 2, 5, 13; auto alone at P = 1,
# 3, 8 (small data); auto with late-rank orders at 13
set(_vplat ${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.xml)
set(_vhosts ${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.hostfile)
set(_vlib ${CMAKE_BINARY_DIR}/smpi/adapt/libarcoll.so)
foreach(_n gatherv scatterv)
  set(_vbp ${CMAKE_BINARY_DIR}/smpi/test/adapt/${_n}_check)
  set(_smpi smpirun -platform ${_vplat} -hostfile ${_vhosts} --cfg=smpi/privatize-libs:${_vlib}
    --log=root.thres:warning --cfg=smpi/simulate-computation:no)
  foreach(cfg "1:500:auto" "2:1000:all" "3:500:auto" "5:500:all" "8:200:auto" "13:100:all")
    string(REPLACE ":" ";" _c ${cfg})
    list(GET _c 0 np)
    list(GET _c 1 big)
    list(GET _c 2 which)
    set(_modes auto)
    if(which STREQUAL "all")
      set(_modes auto forced0 forced1)
    endif()
    foreach(mode ${_modes})
      add_test(NAME adapt.smpi.${_n}.${mode}.np${np} COMMAND ${_smpi} -np ${np} ${_vbp} ${mode} ${big})
      set_tests_properties(adapt.smpi.${_n}.${mode}.np${np} PROPERTIES LABELS smpi TIMEOUT 300
        RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "${_n}_check ${mode} P=${np}: OK")
    endforeach()
  endforeach()
  add_test(NAME adapt.smpi.${_n}.late_order.np13
    COMMAND ${CMAKE_COMMAND} -E env ARCOLL_LATE_ORDER=on ${_smpi} -np 13 ${_vbp} auto 100)
  set_tests_properties(adapt.smpi.${_n}.late_order.np13 PROPERTIES LABELS smpi TIMEOUT 300
    RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "${_n}_check auto P=13: OK")
endforeach()
