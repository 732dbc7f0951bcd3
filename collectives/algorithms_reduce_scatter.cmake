# Groups reduce_scatter and reduce_scatter_block: MPI_Reduce_scatter
# algorithms (header reduce_scatter.h; shared prologue in
# reduce_scatter_prep.c; table in algos_reduce_scatter.c; reduction helpers
# of reduce_util.h) and MPI_Reduce_scatter_block's, their equal-counts case
# (reduce_scatter_block.h, wrappers in reduce_scatter_block.c, table in
# algos_reduce_scatter_block.c).
target_sources(arcoll_collectives PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/reduce_scatter_prep.c
  ${CMAKE_CURRENT_LIST_DIR}/reduce_scatter_recursive_halving.c
  ${CMAKE_CURRENT_LIST_DIR}/reduce_scatter_pairwise.c
  ${CMAKE_CURRENT_LIST_DIR}/reduce_scatter_ring.c
  ${CMAKE_CURRENT_LIST_DIR}/reduce_scatter_reduce_scatterv.c
  ${CMAKE_CURRENT_LIST_DIR}/algos_reduce_scatter.c
  ${CMAKE_CURRENT_LIST_DIR}/reduce_scatter_block.c
  ${CMAKE_CURRENT_LIST_DIR}/algos_reduce_scatter_block.c)
