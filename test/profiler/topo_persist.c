/*
 * Profiler test program: neighbourhood collectives (blocking, nonblocking,
 * _c, persistent), MPI-4 persistent collectives started many times with
 * changing data, MPI_Pcontrol pausing the recording, and persistent
 * point-to-point requests (which are not collectives).  Every result is
 * checked here; trace_check `persist` checks the trace (what is recorded and
 * what is not).  3-4 ranks (on a periodic ring of 2 both neighbours are the
 * same process and MPICH matches their blocks by order), MPICH (MPI >= 4).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int me, P, bad = 0;
#define CHECK(c, ...) do { if (!(c)) { fprintf(stderr, "topo_persist rank %d: ", me); \
  fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); bad++; } } while (0)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm ring;
  int dims[1] = {P}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  int left, right;
  MPI_Cart_shift(ring, 0, 1, &left, &right);

  /* blocking neighbourhood collectives: 24, 16, 12, 12, 8 bytes sent */
  int s3[3] = {me, me + 1, me + 2}, r6[6];
  MPI_Neighbor_allgather(s3, 3, MPI_INT, r6, 3, MPI_INT, ring);
  CHECK(r6[0] == left && r6[3] == right, "neighbor_allgather got %d %d", r6[0], r6[3]);
  int s4[4] = {me, me, me, me}, r4[4];
  MPI_Neighbor_alltoall(s4, 2, MPI_INT, r4, 2, MPI_INT, ring);
  CHECK(r4[0] == left && r4[2] == right, "neighbor_alltoall");
  int sc[2] = {1, 2}, sd[2] = {0, 1}, rc[2] = {2, 1}, rd[2] = {0, 2};
  MPI_Neighbor_alltoallv(s4, sc, sd, MPI_INT, r4, rc, rd, MPI_INT, ring);
  CHECK(r4[0] == left && r4[2] == right, "neighbor_alltoallv");
  /* block 0 (an int) goes to the left, block 1 (a double) to the right; so
   * a double arrives from the left and an int from the right */
  struct { int i; double d; } sw = {me, me + 0.5};
  struct { double d; int i; } rw;
  int wc[2] = {1, 1};
  MPI_Aint wsd[2] = {0, (char *)&sw.d - (char *)&sw}, wrd[2] = {0, (char *)&rw.i - (char *)&rw};
  MPI_Datatype wst[2] = {MPI_INT, MPI_DOUBLE}, wrt[2] = {MPI_DOUBLE, MPI_INT};
  MPI_Neighbor_alltoallw(&sw, wc, wsd, wst, &rw, wc, wrd, wrt, ring);
  CHECK(rw.d == left + 0.5 && rw.i == right, "neighbor_alltoallw");
  int displs[2] = {0, 1}, ones[2] = {1, 1}, r2[2];
  MPI_Neighbor_allgatherv(&me, 1, MPI_INT, r2, ones, displs, MPI_INT, ring);
  CHECK(r2[0] == left && r2[1] == right, "neighbor_allgatherv");
  /* nonblocking (8 bytes) and large-count (16 bytes) forms */
  MPI_Request rq;
  MPI_Ineighbor_alltoall(s4, 1, MPI_INT, r4, 1, MPI_INT, ring, &rq);
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
  MPI_Neighbor_alltoall_c(s4, 2, MPI_INT, r4, 2, MPI_INT, ring);

  /* paused: three broadcasts not recorded */
  MPI_Pcontrol(0);
  for (int i = 0; i < 3; ++i) MPI_Bcast(s4, 4, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Pcontrol(1);

  /* persistent bcast of 16 bytes, started 5 times with new data */
  int b[4];
  MPI_Request pb;
  MPI_Bcast_init(b, 4, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &pb);
  for (int it = 0; it < 5; ++it) {
    for (int i = 0; i < 4; ++i) b[i] = me == 0 ? 100 * it + i : -1;
    MPI_Start(&pb);
    MPI_Wait(&pb, MPI_STATUS_IGNORE);
    for (int i = 0; i < 4; ++i) CHECK(b[i] == 100 * it + i, "bcast start %d elem %d = %d", it, i, b[i]);
  }
  /* persistent allreduce (16 bytes) and barrier, Startall 3 times */
  double x[2], y[2];
  MPI_Request pr[2];
  MPI_Status st[2];
  MPI_Allreduce_init(x, y, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &pr[0]);
  MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &pr[1]);
  for (int it = 0; it < 3; ++it) {
    x[0] = me + it, x[1] = 1.0;
    MPI_Startall(2, pr);
    MPI_Waitall(2, pr, st);
    CHECK(y[0] == P * (P - 1) / 2.0 + P * it && y[1] == P, "allreduce start %d: %g %g", it, y[0], y[1]);
  }
  /* persistent neighbourhood alltoall (8 bytes), started twice */
  MPI_Request pn;
  MPI_Neighbor_alltoall_init(s4, 1, MPI_INT, r4, 1, MPI_INT, ring, MPI_INFO_NULL, &pn);
  for (int it = 0; it < 2; ++it) {
    s4[0] = s4[1] = me * 10 + it;
    MPI_Start(&pn);
    MPI_Wait(&pn, MPI_STATUS_IGNORE);
    CHECK(r4[0] == left * 10 + it && r4[1] == right * 10 + it, "neighbor_alltoall_init start %d", it);
  }
  /* persistent point-to-point: not a collective */
  int v = me, w = -1;
  MPI_Request pp[2];
  MPI_Send_init(&v, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &pp[0]);
  MPI_Recv_init(&w, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &pp[1]);
  for (int it = 0; it < 2; ++it) {
    MPI_Startall(2, pp);
    MPI_Waitall(2, pp, st);
    CHECK(w == left, "persistent recv");
  }
  MPI_Request_free(&pp[0]);
  MPI_Request_free(&pp[1]);
  MPI_Request_free(&pb);
  MPI_Request_free(&pr[0]);
  MPI_Request_free(&pr[1]);
  MPI_Request_free(&pn);
  MPI_Comm_free(&ring);
  MPI_Barrier(MPI_COMM_WORLD);
  if (bad) MPI_Abort(MPI_COMM_WORLD, 1);
  if (me == 0) printf("topo_persist P=%d: OK\n", P);
  MPI_Finalize();
  return 0;
}
