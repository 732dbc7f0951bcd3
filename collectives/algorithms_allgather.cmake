# Group allgather: MPI_Allgather algorithms (header allgather.h; table in
# algos_allgather.c).  Ring, recursive doubling and Bruck are the
# equal-counts case of the allgatherv bodies (allgatherv_ring.c,
# allgatherv_recursive_doubling.c, allgatherv_bruck.c, listed in
# algorithms_allgatherv.cmake, with the shared preparation allgatherv_prep.c);
# gather_bcast keeps its own segmented byte broadcast.
target_sources(arcoll_collectives PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/allgather_gather_bcast.c
  ${CMAKE_CURRENT_LIST_DIR}/allgather_compressed.c
  ${CMAKE_CURRENT_LIST_DIR}/algos_allgather.c)
