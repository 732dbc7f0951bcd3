# arcoll_algorithm_tests(COLL TARGET SOURCE CONFIGS...): the executable TARGET
# from SOURCE (linked with arcoll_collectives), and its tests
#   collectives.COLL.np{2,3,4}      MPICH, argument 20000 (elements of the big case)
#   collectives.COLL.smpi.npN       SimGrid SMPI on cluster256, one per CONFIG "N:BIG"
# each passing when the program prints "TARGET P=<np>: OK".  In the nested
# SMPI build only the executable is made.
function(arcoll_algorithm_tests coll target source)
  add_executable(${target} ${source})
  target_link_libraries(${target} PRIVATE arcoll_collectives arcoll_mpi)
  if(ARCOLL_SMPI_BUILD)
    return()
  endif()
  foreach(np 2 3 4)
    add_test(NAME collectives.${coll}.np${np}
      COMMAND ${ARCOLL_MPIEXEC} -n ${np} $<TARGET_FILE:${target}> 20000)
    set_tests_properties(collectives.${coll}.np${np} PROPERTIES LABELS mpi TIMEOUT 120
      RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "${target} P=${np}: OK")
  endforeach()
  if(NOT ARCOLL_HAVE_SMPI)
    return()
  endif()
  file(RELATIVE_PATH _dir ${CMAKE_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR})
  foreach(cfg ${ARGN})
    string(REPLACE ":" ";" _c ${cfg})
    list(GET _c 0 np)
    list(GET _c 1 big)
    add_test(NAME collectives.${coll}.smpi.np${np}
      COMMAND smpirun -np ${np} -platform ${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.xml
        -hostfile ${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.hostfile
        --log=root.thres:warning --cfg=smpi/simulate-computation:no
        ${CMAKE_BINARY_DIR}/smpi/${_dir}/${target} ${big})
    set_tests_properties(collectives.${coll}.smpi.np${np} PROPERTIES LABELS smpi
      TIMEOUT 300 RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "${target} P=${np}: OK")
  endforeach()
endfunction()
