/*
 * libarcoll's memo of the last communicator state (adapt/dispatch.h,
 * arcoll_state_memo) against the cases where a stale memo would give a wrong
 * answer: communicators freed and made again (MPICH hands a freed
 * communicator's handle to the next one), the new one with another rank order
 * or a single rank; calls alternating between communicators; and, when the
 * library provides MPI_THREAD_MULTIPLE, two threads calling collectives on
 * their own communicators at once (the memo is per thread).
 *
 * Every broadcast and allreduce result is compared element by element with
 * values computed here from the ranks (no MPI reference). Exit 0 when all
 * checks pass, 1 otherwise; prints "comm_memo_check: N checks, F failures".
 *
 * Usage: comm_memo_check [rounds (default 40)] [nothreads]
 * (`nothreads`: no thread part, for SMPI, whose ranks are threads already.)
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_PROG "comm_memo_check"
#include "check_util.h"

static long checked, failures;
static int me, P;

/* One broadcast from `root` and one allreduce (SUM) on comm, n ints each,
 * checked; adds the checks to *chk and the failed ones to *fail. */
static void bcast_allreduce(MPI_Comm comm, int root, int n, int tag, long *chk, long *fail) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  int *buf = malloc(sizeof(int) * (size_t)n), *in = malloc(sizeof(int) * (size_t)n),
      *out = malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; ++i) {
    buf[i] = r == root ? tag * 1000 + i : -1;
    in[i] = (r + 1) * (i + tag);
  }
  MPI_Bcast(buf, n, MPI_INT, root, comm);
  MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, comm);
  int bad_b = 0, bad_a = 0;
  for (int i = 0; i < n; ++i) {
    bad_b += buf[i] != tag * 1000 + i;
    bad_a += out[i] != p * (p + 1) / 2 * (i + tag);
  }
  *chk += 2;
  *fail += (bad_b != 0) + (bad_a != 0);
  if ((bad_b || bad_a) && *fail <= CHECK_PRINTED)
    fprintf(stderr, "%s rank %d: tag %d size %d root %d: %d wrong bcast, %d wrong allreduce elements\n",
            CHECK_PROG, me, tag, p, root, bad_b, bad_a);
  free(buf); free(in); free(out);
}

typedef struct { MPI_Comm comm; int id, rounds; long chk, fail; } thread_arg_t;

static void *thread_main(void *p) {
  thread_arg_t *a = p;
  int size;
  MPI_Comm_size(a->comm, &size);
  for (int k = 0; k < a->rounds; ++k)
    bcast_allreduce(a->comm, (k + a->id) % size, 1 + (k * 37 + a->id * 11) % 300,
                    100 * a->id + k, &a->chk, &a->fail);
  return NULL;
}

int main(int argc, char **argv) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const int rounds = argc > 1 && atoi(argv[1]) > 0 ? atoi(argv[1]) : 40;
  last_fn last = get_last();

  /* 1. made, used, freed, made again: same order, reversed order, single rank */
  for (int k = 0; k < rounds; ++k) {
    MPI_Comm c;
    const int kind = k % 3;
    MPI_Comm_split(MPI_COMM_WORLD, kind == 2 ? me : 0, kind == 1 ? P - me : me, &c);
    int cs;
    MPI_Comm_size(c, &cs);
    if (k % 2) /* alternate: every other round the memo moves to WORLD and back */
      bcast_allreduce(MPI_COMM_WORLD, (k + 1) % P, 3, 50 + k, &checked, &failures);
    bcast_allreduce(c, k % cs, 1 + k % 17, k, &checked, &failures);
    if (last && kind == 2) /* one rank: arcoll passes the call to MPI */
      CHECK(!strcmp(last("bcast"), "pmpi"), "round %d: single-rank bcast ran %s, not pmpi", k,
            last("bcast"));
    MPI_Comm_free(&c); /* freed while the memo holds it: the next one may get its handle */
  }

  /* 2. two threads, each on its own communicator, at once */
  const int threads = !(argc > 2 && !strcmp(argv[2], "nothreads"));
  if (threads && provided == MPI_THREAD_MULTIPLE) {
    thread_arg_t a[2];
    pthread_t t[2];
    for (int i = 0; i < 2; ++i) {
      a[i] = (thread_arg_t){MPI_COMM_NULL, i, rounds * 5, 0, 0};
      MPI_Comm_split(MPI_COMM_WORLD, 0, i ? P - me : me, &a[i].comm);
    }
    for (int i = 0; i < 2; ++i) pthread_create(&t[i], NULL, thread_main, &a[i]);
    for (int i = 0; i < 2; ++i) {
      pthread_join(t[i], NULL);
      checked += a[i].chk;
      failures += a[i].fail;
      MPI_Comm_free(&a[i].comm);
    }
  } else if (threads && me == 0) {
    printf("comm_memo_check: MPI_THREAD_MULTIPLE not provided (%d): thread part skipped\n",
           provided);
  }

  long tot[2] = {checked, failures}, sum[2];
  MPI_Reduce(tot, sum, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("comm_memo_check: %ld checks, %ld failures\n", sum[0], sum[1]);
  MPI_Finalize();
  return failures ? 1 : 0;
}
