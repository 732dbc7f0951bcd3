# Group allgather: MPI_Allgather algorithms (header allgather.h; shared
# preparation and block-set datatypes in allgather_prep.c; table in
# algos_allgather.c).
target_sources(arcoll_collectives PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/allgather_prep.c
  ${CMAKE_CURRENT_LIST_DIR}/allgather_ring.c
  ${CMAKE_CURRENT_LIST_DIR}/allgather_recursive_doubling.c
  ${CMAKE_CURRENT_LIST_DIR}/allgather_rd_schedule.c
  ${CMAKE_CURRENT_LIST_DIR}/allgather_bruck.c
  ${CMAKE_CURRENT_LIST_DIR}/allgather_gather_bcast.c
  ${CMAKE_CURRENT_LIST_DIR}/algos_allgather.c)
