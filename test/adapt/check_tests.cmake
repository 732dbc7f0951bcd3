# Check programs of one interposed collective each (check_driver.h) and their
# tests, for the collectives added after allgatherv (gatherv and scatterv in
# vblocks_tests.cmake, reduce_scatter, alltoallv), and the SMPI test command
# shared with coll_loop_tests.cmake; included by CMakeLists.txt here.
#
# arcoll_check_program(PROGRAM [SOURCE FILE] DATADIRS...): the executable
# PROGRAM from FILE (default PROGRAM.c) with the test data headers of
# test/collectives/<DATADIR>; in the nested SMPI build linked with libarcoll
# (ARCOLL_TEST_LINKED), under MPICH it gets libarcoll by LD_PRELOAD
# (collectives/ linked for the tables only).
function(arcoll_check_program program)
  cmake_parse_arguments(A "" "SOURCE" "" ${ARGN})
  if(NOT A_SOURCE)
    set(A_SOURCE ${program}.c)
  endif()
  add_executable(${program} ${A_SOURCE})
  foreach(d ${A_UNPARSED_ARGUMENTS})
    target_include_directories(${program} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/../collectives/${d})
  endforeach()
  if(ARCOLL_SMPI_BUILD)
    target_compile_definitions(${program} PRIVATE ARCOLL_TEST_LINKED=1)
    target_link_libraries(${program} PRIVATE -Wl,--no-as-needed arcoll -Wl,--as-needed
      arcoll_collectives arcoll_mpi ${CMAKE_DL_LIBS})
  else()
    target_link_libraries(${program} PRIVATE arcoll_collectives arcoll_mpi ${CMAKE_DL_LIBS})
  endif()
endfunction()

# arcoll_adapt_smpi_test(NAME NP BINARY [COMPUTE] [ARGS ...] [ENV K=V ...]):
# BINARY (linked with libarcoll) under smpirun on cluster256 with libarcoll
# privatised; --cfg=smpi/simulate-computation:no unless COMPUTE (then the
# program's own CPU time is simulated too).  Label smpi, timeout 300 s.
function(arcoll_adapt_smpi_test name np binary)
  cmake_parse_arguments(A "COMPUTE" "" "ARGS;ENV" ${ARGN})
  set(cfg --cfg=smpi/simulate-computation:no)
  if(A_COMPUTE)
    set(cfg)
  endif()
  set(envcmd)
  if(A_ENV)
    set(envcmd ${CMAKE_COMMAND} -E env ${A_ENV})
  endif()
  add_test(NAME ${name}
    COMMAND ${envcmd} smpirun -np ${np} -platform ${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.xml
      -hostfile ${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.hostfile
      --cfg=smpi/privatize-libs:${CMAKE_BINARY_DIR}/smpi/adapt/libarcoll.so
      --log=root.thres:warning ${cfg} ${binary} ${A_ARGS})
  set_tests_properties(${name} PROPERTIES LABELS smpi TIMEOUT 300 RESOURCE_LOCK mpi)
endfunction()

# arcoll_check_tests(COLL PROGRAM NALGO BIG NAMES CONFIGS...), MPICH build:
#   adapt.COLL.MODE.np{2,3,4}   MODE = auto, forced0..NALGO-1, errors (BIG elements)
#   adapt.COLL.bad_algorithm.np2  ARCOLL_<COLL>_ALGORITHM=bogus stops MPI_Init listing NAMES
#   adapt.smpi.COLL.MODE.npN    SMPI, one per CONFIG "N:BIG:auto|all" (all: every forced too)
# each passing when the program prints "PROGRAM MODE P=N: OK".
function(arcoll_check_tests coll program nalgo big names)
  string(TOUPPER ${coll} up)
  math(EXPR last "${nalgo} - 1")
  set(forced)
  foreach(k RANGE ${last})
    list(APPEND forced forced${k})
  endforeach()
  foreach(np 2 3 4)
    foreach(mode auto ${forced} errors)
      arcoll_adapt_mpi_test(adapt.${coll}.${mode}.np${np} ${np} PROGRAM ${program}
        ARGS ${mode} ${big})
      set_tests_properties(adapt.${coll}.${mode}.np${np} PROPERTIES
        PASS_REGULAR_EXPRESSION "${program} ${mode} P=${np}: OK")
    endforeach()
  endforeach()
  arcoll_adapt_mpi_test(adapt.${coll}.bad_algorithm.np2 2 PROGRAM ${program} ARGS errors
    ENV ARCOLL_${up}_ALGORITHM=bogus)
  set_tests_properties(adapt.${coll}.bad_algorithm.np2 PROPERTIES PASS_REGULAR_EXPRESSION
    "ARCOLL_${up}_ALGORITHM='bogus' is not valid; use one of: auto .*pmpi .*, ${names}")
  if(NOT ARCOLL_HAVE_SMPI)
    return()
  endif()
  foreach(cfg ${ARGN})
    string(REPLACE ":" ";" _c ${cfg})
    list(GET _c 0 np)
    list(GET _c 1 sbig)
    list(GET _c 2 which)
    set(modes auto)
    if(which STREQUAL "all")
      set(modes auto ${forced})
    endif()
    foreach(mode ${modes})
      arcoll_adapt_smpi_test(adapt.smpi.${coll}.${mode}.np${np} ${np}
        ${CMAKE_BINARY_DIR}/smpi/test/adapt/${program} ARGS ${mode} ${sbig})
      set_tests_properties(adapt.smpi.${coll}.${mode}.np${np} PROPERTIES
        PASS_REGULAR_EXPRESSION "${program} ${mode} P=${np}: OK")
    endforeach()
  endforeach()
endfunction()

# The compressed broadcast through libarcoll (compress_check.c; seed 004):
#   adapt.compress.forced_lz4.np{2,3,4}, forced_zstd.np3: data and codec agreement
#   adapt.compress.switch.np{2,3,4}: ARCOLL_COMPRESS=auto with a 100 Mb/s model
#     compresses text-like / zero data of 1 MiB and never random data
#   adapt.compress.auto.np{2,3,4}: the online selection with `compressed` a candidate
#   adapt.compress.bad_value.np2: ARCOLL_COMPRESS=gzip stops MPI_Init naming the values
#   adapt.smpi.compress.switch.npN, N = 1 2 3 5 8 13
# (the program: arcoll_check_program(compress_check) in CMakeLists.txt, both builds)
function(arcoll_compress_tests)
  set(_model ${CMAKE_CURRENT_SOURCE_DIR}/slow_network.model.json)
  foreach(np 2 3 4)
    arcoll_adapt_mpi_test(adapt.compress.forced_lz4.np${np} ${np} PROGRAM compress_check
      ARGS forced ENV ARCOLL_BCAST_ALGORITHM=compressed ARCOLL_COMPRESS=lz4)
    arcoll_adapt_mpi_test(adapt.compress.switch.np${np} ${np} PROGRAM compress_check
      ARGS switch ENV ARCOLL_BCAST_ALGORITHM=compressed ARCOLL_COMPRESS=auto ARCOLL_MODEL=${_model})
    arcoll_adapt_mpi_test(adapt.compress.auto.np${np} ${np} PROGRAM compress_check
      ARGS auto ENV ARCOLL_MODEL=${_model})
    set_tests_properties(adapt.compress.forced_lz4.np${np} PROPERTIES
      PASS_REGULAR_EXPRESSION "compress_check forced P=${np}: OK")
    set_tests_properties(adapt.compress.switch.np${np} PROPERTIES
      PASS_REGULAR_EXPRESSION "compress_check switch P=${np}: OK")
    set_tests_properties(adapt.compress.auto.np${np} PROPERTIES
      PASS_REGULAR_EXPRESSION "compress_check auto P=${np}: OK")
  endforeach()
  arcoll_adapt_mpi_test(adapt.compress.forced_zstd.np3 3 PROGRAM compress_check
    ARGS forced ENV ARCOLL_BCAST_ALGORITHM=compressed ARCOLL_COMPRESS=zstd)
  set_tests_properties(adapt.compress.forced_zstd.np3 PROPERTIES
    PASS_REGULAR_EXPRESSION "compress_check forced P=3: OK")
  arcoll_adapt_mpi_test(adapt.compress.bad_value.np2 2 PROGRAM compress_check
    ARGS forced ENV ARCOLL_COMPRESS=gzip)
  set_tests_properties(adapt.compress.bad_value.np2 PROPERTIES PASS_REGULAR_EXPRESSION
    "ARCOLL_COMPRESS='gzip' is not valid; use one of: auto .*off .*lz4 .*zstd")
  if(NOT ARCOLL_HAVE_SMPI)
    return()
  endif()
  foreach(np 1 2 3 5 8 13)
    arcoll_adapt_smpi_test(adapt.smpi.compress.switch.np${np} ${np}
      ${CMAKE_BINARY_DIR}/smpi/test/adapt/compress_check ARGS switch
      ENV ARCOLL_BCAST_ALGORITHM=compressed ARCOLL_COMPRESS=auto ARCOLL_MODEL=${_model})
    set_tests_properties(adapt.smpi.compress.switch.np${np} PROPERTIES
      PASS_REGULAR_EXPRESSION "compress_check switch P=${np}: OK")
  endforeach()
endfunction()
