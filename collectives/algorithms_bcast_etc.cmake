# Group bcast_etc: MPI_Bcast, MPI_Gather, MPI_Scatter, MPI_Alltoall and
# MPI_Barrier algorithms (headers bcast.h, gather.h, alltoall.h; tables in
# algos_bcast_etc.c).
target_sources(arcoll_collectives PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/bcast_etc_util.c
  ${CMAKE_CURRENT_LIST_DIR}/tree_extra.c
  ${CMAKE_CURRENT_LIST_DIR}/bcast_multitree.c
  ${CMAKE_CURRENT_LIST_DIR}/bcast_binomial.c
  ${CMAKE_CURRENT_LIST_DIR}/bcast_chain.c
  ${CMAKE_CURRENT_LIST_DIR}/bcast_binary.c
  ${CMAKE_CURRENT_LIST_DIR}/bcast_twopath.c
  ${CMAKE_CURRENT_LIST_DIR}/bcast_ksegment.c
  ${CMAKE_CURRENT_LIST_DIR}/bcast_nebst.c
  ${CMAKE_CURRENT_LIST_DIR}/bcast_scatter_ring.c
  ${CMAKE_CURRENT_LIST_DIR}/bcast_scatter_rdb.c
  ${CMAKE_CURRENT_LIST_DIR}/bcast_scatter.c
  ${CMAKE_CURRENT_LIST_DIR}/bcast_twotree.c
  ${CMAKE_CURRENT_LIST_DIR}/bcast_linear.c
  ${CMAKE_CURRENT_LIST_DIR}/bcast_knomial.c
  ${CMAKE_CURRENT_LIST_DIR}/bcast_compressed.c
  ${CMAKE_CURRENT_LIST_DIR}/compress_codec.c
  ${CMAKE_CURRENT_LIST_DIR}/compress_decide.c
  ${CMAKE_CURRENT_LIST_DIR}/compress_block.c
  ${CMAKE_CURRENT_LIST_DIR}/gather_linear.c
  ${CMAKE_CURRENT_LIST_DIR}/gather_binomial.c
  ${CMAKE_CURRENT_LIST_DIR}/gather_compressed.c
  ${CMAKE_CURRENT_LIST_DIR}/scatter_linear.c
  ${CMAKE_CURRENT_LIST_DIR}/scatter_binomial.c
  ${CMAKE_CURRENT_LIST_DIR}/alltoall_prep.c
  ${CMAKE_CURRENT_LIST_DIR}/alltoall_linear.c
  ${CMAKE_CURRENT_LIST_DIR}/alltoall_pairwise.c
  ${CMAKE_CURRENT_LIST_DIR}/alltoall_bruck.c
  ${CMAKE_CURRENT_LIST_DIR}/alltoall_compressed.c
  ${CMAKE_CURRENT_LIST_DIR}/barrier_dissemination.c
  ${CMAKE_CURRENT_LIST_DIR}/algos_bcast_etc.c)
