# Group alltoallv: MPI_Alltoallv algorithms (header alltoallv.h; shared
# arguments, block messages and the own block in alltoallv_prep.c, the
# MPI_IN_PLACE exchange in alltoallv_inplace.c; table in algos_alltoallv.c).
target_sources(arcoll_collectives PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/alltoallv_prep.c
  ${CMAKE_CURRENT_LIST_DIR}/alltoallv_inplace.c
  ${CMAKE_CURRENT_LIST_DIR}/alltoallv_linear.c
  ${CMAKE_CURRENT_LIST_DIR}/alltoallv_pairwise.c
  ${CMAKE_CURRENT_LIST_DIR}/algos_alltoallv.c)
