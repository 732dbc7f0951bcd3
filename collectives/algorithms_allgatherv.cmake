# Irregular group allgather: MPI_Allgatherv algorithms (header allgatherv.h;
# table in algos_allgatherv.c).  The preparation and hindexed block-set
# datatypes (allgatherv_prep.c) and the ring, recursive-doubling and Bruck
# files also define allgather's algorithms of those names (the equal-counts
# case, allgather.h).
target_sources(arcoll_collectives PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/allgatherv_prep.c
  ${CMAKE_CURRENT_LIST_DIR}/allgatherv_ring.c
  ${CMAKE_CURRENT_LIST_DIR}/allgatherv_neighbor_exchange.c
  ${CMAKE_CURRENT_LIST_DIR}/allgatherv_recursive_doubling.c
  ${CMAKE_CURRENT_LIST_DIR}/allgatherv_bruck.c
  ${CMAKE_CURRENT_LIST_DIR}/allgatherv_gather_bcast.c
  ${CMAKE_CURRENT_LIST_DIR}/allgatherv_direct.c
  ${CMAKE_CURRENT_LIST_DIR}/allgatherv_linear_knomial.c
  ${CMAKE_CURRENT_LIST_DIR}/algos_allgatherv.c)
