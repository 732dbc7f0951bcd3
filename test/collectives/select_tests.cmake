# Tests of the model and the selector (collectives/select.h): unit tests, and
# arcoll-calibrate at 2 ranks under MPICH whose output test_model_file
# then loads (ARCOLL_CALIBRATED_MODEL).
find_package(nlohmann_json REQUIRED)
add_executable(test_select ${CMAKE_CURRENT_LIST_DIR}/test_select.cpp)
target_link_libraries(test_select PRIVATE arcoll_collectives GTest::gtest_main nlohmann_json::nlohmann_json)
gtest_discover_tests(test_select PROPERTIES LABELS unit)
# the model file (writer, reader, errors), the cost formulas of the newer
# collectives, the segment for back-to-back calls
foreach(_t test_model_file test_model_collectives test_select_stream)
  add_executable(${_t} ${CMAKE_CURRENT_LIST_DIR}/${_t}.cpp)
  target_link_libraries(${_t} PRIVATE arcoll_collectives GTest::gtest_main nlohmann_json::nlohmann_json)
  gtest_discover_tests(${_t} PROPERTIES LABELS unit)
endforeach()
# arcoll-calibrate's fits (tools/calibrate_fit.h), no MPI
add_executable(test_calibrate_fit ${CMAKE_CURRENT_LIST_DIR}/test_calibrate_fit.cpp
  ${CMAKE_SOURCE_DIR}/tools/calibrate_fit.c)
target_include_directories(test_calibrate_fit PRIVATE ${CMAKE_SOURCE_DIR}/tools)
target_link_libraries(test_calibrate_fit PRIVATE arcoll_collectives GTest::gtest_main)
gtest_discover_tests(test_calibrate_fit PROPERTIES LABELS unit)
# the online selection's rounds, with synthetic times (collectives/online.h)
add_executable(test_online ${CMAKE_CURRENT_LIST_DIR}/test_online.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_online_candidates.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_online_confirm.cpp ${CMAKE_CURRENT_LIST_DIR}/test_online_deferred.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_online_tree_first.cpp ${CMAKE_CURRENT_LIST_DIR}/test_online_warmup.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_online_native.cpp ${CMAKE_CURRENT_LIST_DIR}/test_online_readmit.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_online_noted.cpp ${CMAKE_CURRENT_LIST_DIR}/test_online_stream_only.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_online_synchronised.cpp ${CMAKE_CURRENT_LIST_DIR}/test_online_transient.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_online_moving_root.cpp ${CMAKE_CURRENT_LIST_DIR}/test_online_moving_root_bcast.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_online_twins.cpp ${CMAKE_CURRENT_LIST_DIR}/test_online_steps.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_online_band.cpp)
target_link_libraries(test_online PRIVATE arcoll_collectives GTest::gtest_main)
# the calibrated model of tools/platforms/cluster256.xml (its chain segments' occupancy)
target_compile_definitions(test_online PRIVATE
  ARCOLL_TEST_CLUSTER_MODEL="${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.model.json")
gtest_discover_tests(test_online PROPERTIES LABELS unit)

set(_cal_out ${CMAKE_CURRENT_BINARY_DIR}/calibrated.model.json)
add_test(NAME collectives.calibrate.np2
  COMMAND sh -c "rm -f '${_cal_out}' && ${ARCOLL_MPIEXEC} -n 2 '$<TARGET_FILE:arcoll_calibrate>' -o '${_cal_out}' -r 6 -m 65536 -q && ARCOLL_CALIBRATED_MODEL='${_cal_out}' ARCOLL_CALIBRATED_MAX_BYTES=65536 '$<TARGET_FILE:test_model_file>' --gtest_filter=Calibrated.* 2>&1 | tee /dev/stderr | grep -q '\\[  PASSED  \\] 1 test'")
set_tests_properties(collectives.calibrate.np2 PROPERTIES LABELS mpi TIMEOUT 120 RESOURCE_LOCK mpi)
# `arcoll list-algorithms` is checked against the tables by test_select
if(TARGET arcoll_cli)
  target_compile_definitions(test_select PRIVATE ARCOLL_CLI_PATH="$<TARGET_FILE:arcoll_cli>")
  add_dependencies(test_select arcoll_cli)
endif()
