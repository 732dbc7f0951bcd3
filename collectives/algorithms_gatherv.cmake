# Rooted irregular blocks: MPI_Gatherv and MPI_Scatterv algorithms (header
# gatherv.h; chunked byte streams and packing in gatherv_stream.c; both linear
# algorithms in vblocks_linear.c; tables in
# algos_gatherv.c).
target_sources(arcoll_collectives PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/gatherv_stream.c
  ${CMAKE_CURRENT_LIST_DIR}/vblocks_linear.c
  ${CMAKE_CURRENT_LIST_DIR}/gatherv_binomial.c
  ${CMAKE_CURRENT_LIST_DIR}/scatterv_binomial.c
  ${CMAKE_CURRENT_LIST_DIR}/algos_gatherv.c)
