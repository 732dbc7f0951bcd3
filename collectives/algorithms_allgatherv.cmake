# Irregular group allgather: MPI_Allgatherv algorithms (header allgatherv.h;
# shared preparation and hindexed block-set datatypes in allgatherv_prep.c;
# table in algos_allgatherv.c).
target_sources(arcoll_collectives PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/allgatherv_prep.c
  ${CMAKE_CURRENT_LIST_DIR}/allgatherv_ring.c
  ${CMAKE_CURRENT_LIST_DIR}/allgatherv_recursive_doubling.c
  ${CMAKE_CURRENT_LIST_DIR}/allgatherv_bruck.c
  ${CMAKE_CURRENT_LIST_DIR}/allgatherv_gather_bcast.c
  ${CMAKE_CURRENT_LIST_DIR}/algos_allgatherv.c)
