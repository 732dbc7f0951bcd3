# Model and selection (select.h): cost model (model.c), search (select.c),
# the MPI library's own collective as a measured-only candidate (native.c),
# online selection among the search's best candidates (online.c; its MPI
# exchanges: online_exchange.c; the confirmation: online_confirm.c; warm-up
# and deferred decisions: online_pacing.c; runs made while it waits:
# online_noted.c; the candidates measured whatever the model predicts:
# online_slots.c; far-first variants after their near-first twins:
# online_twins.c, and not measured where the twin's steps rule them out:
# online_steps.c; round 0's readmission of what the model dropped:
# online_readmit.c),
# model file reader/writer (model_io.cpp, nlohmann-json), the calibration
# program arcoll-calibrate (tools/calibrate.c, its fits tools/calibrate_fit.c; built in both the MPICH and the
# nested SMPI build, into <build>/tools/) and, MPICH build only, the
# MPI-free table of algorithm names used by `arcoll list-algorithms`
# (generated at build time from the algorithm tables themselves).
find_package(nlohmann_json REQUIRED)
target_sources(arcoll_collectives PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/model.c
  ${CMAKE_CURRENT_LIST_DIR}/model_bcast.c
  ${CMAKE_CURRENT_LIST_DIR}/model_allgather.c
  ${CMAKE_CURRENT_LIST_DIR}/model_allgatherv.c
  ${CMAKE_CURRENT_LIST_DIR}/model_gatherv.c
  ${CMAKE_CURRENT_LIST_DIR}/model_reduce_scatter.c
  ${CMAKE_CURRENT_LIST_DIR}/model_alltoallv.c
  ${CMAKE_CURRENT_LIST_DIR}/select.c
  ${CMAKE_CURRENT_LIST_DIR}/native.c
  ${CMAKE_CURRENT_LIST_DIR}/online.c
  ${CMAKE_CURRENT_LIST_DIR}/online_exchange.c
  ${CMAKE_CURRENT_LIST_DIR}/online_confirm.c
  ${CMAKE_CURRENT_LIST_DIR}/online_pacing.c
  ${CMAKE_CURRENT_LIST_DIR}/online_noted.c
  ${CMAKE_CURRENT_LIST_DIR}/online_slots.c
  ${CMAKE_CURRENT_LIST_DIR}/online_twins.c
  ${CMAKE_CURRENT_LIST_DIR}/online_steps.c
  ${CMAKE_CURRENT_LIST_DIR}/online_readmit.c
  ${CMAKE_CURRENT_LIST_DIR}/model_io.cpp)
set_target_properties(arcoll_collectives PROPERTIES CXX_VISIBILITY_PRESET hidden
  VISIBILITY_INLINES_HIDDEN ON)
target_link_libraries(arcoll_collectives PRIVATE nlohmann_json::nlohmann_json)
target_link_libraries(arcoll_collectives PUBLIC m)

add_executable(arcoll_calibrate ${CMAKE_SOURCE_DIR}/tools/calibrate.c ${CMAKE_SOURCE_DIR}/tools/calibrate_fit.c)
set_target_properties(arcoll_calibrate PROPERTIES OUTPUT_NAME arcoll-calibrate
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tools)
target_link_libraries(arcoll_calibrate PRIVATE arcoll_collectives arcoll_mpi)

if(NOT ARCOLL_SMPI_BUILD)
  install(TARGETS arcoll_calibrate RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  # Names of every algorithm, printed by a generator linked with the tables
  # (no hand-kept copy), compiled into a library without MPI for the CLI.
  add_executable(arcoll_algo_names_gen ${CMAKE_CURRENT_LIST_DIR}/algo_names_gen.c)
  target_link_libraries(arcoll_algo_names_gen PRIVATE arcoll_collectives arcoll_mpi)
  set(_names_c ${CMAKE_CURRENT_BINARY_DIR}/algo_names.c)
  add_custom_command(OUTPUT ${_names_c}
    COMMAND arcoll_algo_names_gen ${_names_c}
    DEPENDS arcoll_algo_names_gen
    COMMENT "Generating the table of algorithm names"
    VERBATIM)
  add_library(arcoll_algo_names STATIC ${_names_c})
  target_include_directories(arcoll_algo_names PUBLIC ${CMAKE_CURRENT_LIST_DIR}/names)
endif()

# model_compare: measured (bench/smpi_coll_bench CSV) vs predicted times and
# the model's ranking penalty; tools/model-check.sh drives it.
if(NOT ARCOLL_SMPI_BUILD)
  add_executable(model_compare ${CMAKE_CURRENT_LIST_DIR}/model_compare.c)
  set_target_properties(model_compare PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tools)
  target_link_libraries(model_compare PRIVATE arcoll_collectives arcoll_mpi)
endif()
