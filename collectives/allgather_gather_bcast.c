/* Gather + broadcast allgather over the existing trees (binomial gather,
 * gather.h, then binomial broadcast, bcast.h, along the same order); see
 * allgather.h.  Not the body of allgatherv_gather_bcast.c: the broadcast
 * here goes through arcoll_bcast_binomial as bytes (packed when recvtype is
 * not plain bytes, since receive types may differ between ranks) so that it
 * honours segment_bytes; the preparation is the shared one
 * (allgatherv_prep.h, equal-counts form). */
#include <limits.h>
#include <stdlib.h>

#include "allgather.h"
#include "allgatherv_prep.h"
#include "bcast.h"
#include "bcast_etc_util.h"
#include "gather.h"

/* 1 if t lays its data out as one run of bytes from offset 0 (then recvbuf
 * can be broadcast as MPI_BYTE without packing). */
static int plain_bytes(MPI_Datatype t, int size) {
  MPI_Aint lb, ext, tlb, text;
  if (MPI_Type_get_extent(t, &lb, &ext) != MPI_SUCCESS ||
      MPI_Type_get_true_extent(t, &tlb, &text) != MPI_SUCCESS)
    return 0;
  return lb == 0 && tlb == 0 && ext == size && text == size;
}

int arcoll_allgather_gather_bcast(const void *sendbuf, MPI_Aint sendcount,
                                  MPI_Datatype sendtype, void *recvbuf, MPI_Aint recvcount,
                                  MPI_Datatype recvtype, MPI_Comm comm,
                                  const arcoll_sched_t *s) {
  arcoll_agv_t a;
  int size, rc = arcoll_agv_prepare_equal(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                          recvtype, comm, s, &a);
  if (rc == ARCOLL_AGV_NOTHING) return MPI_SUCCESS;
  if (rc != MPI_SUCCESS) return rc;
  if ((rc = MPI_Type_size(recvtype, &size)) != MPI_SUCCESS) {
    arcoll_agv_done(&a);
    return rc;
  }
  const int P = a.P, root = a.order[0], count = (int)a.count;
  const MPI_Aint total = (MPI_Aint)P * count * size;
  if (total > INT_MAX) { /* the packed copy would not fit MPI_Pack's int positions */
    arcoll_agv_done(&a);
    return arcoll_allgather_ring(MPI_IN_PLACE, 0, recvtype, recvbuf, recvcount, recvtype, comm,
                                 s);
  }
  const arcoll_sched_t sg = {a.order, 0, 0, arcoll_sched_tag(s)};
  const arcoll_sched_t sb = {a.order, s ? s->segment_bytes : 0, 0, arcoll_sched_tag(s)};
  const int me = a.order[a.pos];
  rc = arcoll_gather_binomial(me == root ? MPI_IN_PLACE : arcoll_agv_block(&a, a.pos), count,
                              a.rtype, recvbuf, count, a.rtype, root, comm, &sg);
  if (rc == MPI_SUCCESS && plain_bytes(a.rtype, size)) {
    rc = arcoll_bcast_binomial(recvbuf, total, MPI_BYTE, root, comm, &sb);
  } else if (rc == MPI_SUCCESS) {
    char *tmp = malloc((size_t)total);
    int p = 0;
    if (!tmp) rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS && me == root)
      rc = MPI_Pack(recvbuf, P * count, a.rtype, tmp, (int)total, &p, comm);
    if (rc == MPI_SUCCESS) rc = arcoll_bcast_binomial(tmp, total, MPI_BYTE, root, comm, &sb);
    if (rc == MPI_SUCCESS && me != root)
      rc = MPI_Unpack(tmp, (int)total, &p, recvbuf, P * count, a.rtype, comm);
    free(tmp);
  }
  arcoll_agv_done(&a);
  return rc;
}
