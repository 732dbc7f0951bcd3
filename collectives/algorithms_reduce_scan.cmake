# Group reduce_scan: MPI_Reduce, MPI_Allreduce, MPI_Scan, MPI_Exscan algorithms
# (headers reduce.h, allreduce.h, scan.h; tables in algos_reduce_scan.c).
target_sources(arcoll_collectives PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/reduce_util.c
  ${CMAKE_CURRENT_LIST_DIR}/reduce_scatter_halving.c
  ${CMAKE_CURRENT_LIST_DIR}/reduce_binomial.c
  ${CMAKE_CURRENT_LIST_DIR}/reduce_knomial.c
  ${CMAKE_CURRENT_LIST_DIR}/reduce_detach.c
  ${CMAKE_CURRENT_LIST_DIR}/reduce_knomial_detach.c
  ${CMAKE_CURRENT_LIST_DIR}/reduce_rsag.c
  ${CMAKE_CURRENT_LIST_DIR}/reduce_chain.c
  ${CMAKE_CURRENT_LIST_DIR}/allreduce_recursive_doubling.c
  ${CMAKE_CURRENT_LIST_DIR}/allreduce_rabenseifner.c
  ${CMAKE_CURRENT_LIST_DIR}/allreduce_ring.c
  ${CMAKE_CURRENT_LIST_DIR}/allreduce_reduce_bcast.c
  ${CMAKE_CURRENT_LIST_DIR}/scan_pipeline.c
  ${CMAKE_CURRENT_LIST_DIR}/tree_inorder.c
  ${CMAKE_CURRENT_LIST_DIR}/scan_pipelined_tree.c
  ${CMAKE_CURRENT_LIST_DIR}/scan_linear.c
  ${CMAKE_CURRENT_LIST_DIR}/scan_direct.c
  ${CMAKE_CURRENT_LIST_DIR}/scan_kernel_run.c
  ${CMAKE_CURRENT_LIST_DIR}/scan_brent_kung.c
  ${CMAKE_CURRENT_LIST_DIR}/scan_sqrtp.c
  ${CMAKE_CURRENT_LIST_DIR}/scan_recursive_doubling.c
  ${CMAKE_CURRENT_LIST_DIR}/algos_reduce_scan.c)
