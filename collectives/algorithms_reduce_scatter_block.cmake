# Group reduce_scatter_block: MPI_Reduce_scatter_block algorithms (header
# reduce_scatter_block.h; shared prologue in reduce_scatter_block_prep.c;
# table in algos_reduce_scatter_block.c; reduction helpers of reduce_util.h).
target_sources(arcoll_collectives PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/reduce_scatter_block_prep.c
  ${CMAKE_CURRENT_LIST_DIR}/reduce_scatter_block_recursive_halving.c
  ${CMAKE_CURRENT_LIST_DIR}/reduce_scatter_block_pairwise.c
  ${CMAKE_CURRENT_LIST_DIR}/reduce_scatter_block_ring.c
  ${CMAKE_CURRENT_LIST_DIR}/algos_reduce_scatter_block.c)
