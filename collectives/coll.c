/* Helpers shared by the algorithms of collectives/; see coll.h. */
#include "coll.h"

#include <errno.h>
#include <stdlib.h>

int arcoll_wait_all(MPI_Aint n, MPI_Request *req, int rc) {
  for (MPI_Aint i = 0; i < n; ++i) {
    int r = MPI_Wait(&req[i], MPI_STATUS_IGNORE);
    if (r != MPI_SUCCESS && rc == MPI_SUCCESS) rc = r;
  }
  return rc;
}

int arcoll_parse_integer(const char *s, long long lo, long long hi, long long *out) {
  char *end;
  errno = 0;
  const long long v = strtoll(s, &end, 10);
  if (errno || end == s || *end != '\0' || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}
