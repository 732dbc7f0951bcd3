/* Helpers shared by the algorithms of collectives/; see coll.h. */
#include "coll.h"

int arcoll_wait_all(MPI_Aint n, MPI_Request *req, int rc) {
  for (MPI_Aint i = 0; i < n; ++i) {
    int r = MPI_Wait(&req[i], MPI_STATUS_IGNORE);
    if (r != MPI_SUCCESS && rc == MPI_SUCCESS) rc = r;
  }
  return rc;
}
