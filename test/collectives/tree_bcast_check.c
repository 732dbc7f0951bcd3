/*
 * MPI test of arcoll_bcast_tree over binomial and chain trees built on
 * identity, reversed and pseudo-random rank orders; MPI_INT, a vector and a
 * struct type; counts 0, 1, 17, 20000; segment sizes 0, 7, 100, 4096 bytes.
 * Every element is compared with its expected value; vector gaps must stay
 * untouched.  Exit status 1 on any mismatch.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_tree.h"
#include "tree.h"

typedef struct { double d; int i; char c; } rec_t;
static int P, me;
static long failures;

static int val(int id, long i) { return (int)((id * 104729L + i * 7L + 3) % 1000003L); }

static void make_order(int kind, int id, int *order) {
  for (int i = 0; i < P; ++i) order[i] = kind == 1 ? P - 1 - i : i;
  if (kind == 2) { /* same LCG on every rank */
    unsigned s = 12345u + (unsigned)id;
    for (int i = P - 1; i > 0; --i) {
      s = s * 1103515245u + 12345u;
      int j = (int)((s >> 8) % (unsigned)(i + 1));
      int t = order[i]; order[i] = order[j]; order[j] = t;
    }
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Datatype vec, st, tmp;
  MPI_Type_vector(3, 1, 2, MPI_INT, &vec); /* ints 0, 2, 4 of every 5 (extent 5 ints) */
  MPI_Type_commit(&vec);
  int bl[3] = {1, 1, 1};
  MPI_Aint disp[3] = {offsetof(rec_t, d), offsetof(rec_t, i), offsetof(rec_t, c)};
  MPI_Datatype bt[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR};
  MPI_Type_create_struct(3, bl, disp, bt, &tmp);
  MPI_Type_create_resized(tmp, 0, sizeof(rec_t), &st);
  MPI_Type_commit(&st);
  MPI_Type_free(&tmp);
#if defined(SMPI_SAMPLE_FLOPS) /* SimGrid: keep the simulation short */
  const long counts[4] = {0, 1, 17, 2000};
#else
  const long counts[4] = {0, 1, 17, 20000};
#endif
  const MPI_Aint segs[4] = {0, 7, 100, 4096};
  int *order = malloc(sizeof(int) * (size_t)P);
  int id = 0;
  for (int kind = 0; kind < 3; ++kind)
    for (int shape = 0; shape < 2; ++shape)
      for (int t = 0; t < 3; ++t)
        for (int c = 0; c < 4; ++c)
          for (int s = 0; s < 4; ++s) {
            ++id;
            if (c == 3 && s == 1) continue; /* 1-element segments x 20000: too slow */
            make_order(kind, id, order);
            arcoll_tree_t tree;
            int rc = shape == 0 ? arcoll_tree_binomial(order, P, me, &tree)
                                : arcoll_tree_chain(order, P, me, &tree);
            if (rc != MPI_SUCCESS) { ++failures; continue; }
            const int root = order[0];
            long n = counts[c];
            long ints = t == 0 ? n : 5 * n; /* int buffers */
            void *buf;
            if (t == 2) {
              rec_t *r = malloc(sizeof(rec_t) * (size_t)(n + 1));
              for (long e = 0; e < n; ++e) {
                r[e].d = me == root ? val(id, 3 * e) * 0.5 : -1;
                r[e].i = me == root ? val(id, 3 * e + 1) : -1;
                r[e].c = me == root ? (char)(val(id, 3 * e + 2) & 0x7f) : (char)-1;
              }
              buf = r;
            } else {
              int *b = malloc(sizeof(int) * (size_t)(ints + 1));
              for (long i = 0; i < ints; ++i)
                b[i] = (me == root && (t == 0 || (i % 5) % 2 == 0 && i % 5 < 5)) ? val(id, i) : -9;
              buf = b;
            }
            MPI_Datatype dt = t == 0 ? MPI_INT : t == 1 ? vec : st;
            rc = arcoll_bcast_tree(buf, n, dt, &tree, segs[s], 11, MPI_COMM_WORLD);
            if (rc != MPI_SUCCESS) ++failures;
            long bad = 0;
            if (t == 2) {
              rec_t *r = buf;
              for (long e = 0; e < n; ++e)
                bad += r[e].d != val(id, 3 * e) * 0.5 || r[e].i != val(id, 3 * e + 1) ||
                       r[e].c != (char)(val(id, 3 * e + 2) & 0x7f);
            } else {
              int *b = buf;
              for (long i = 0; i < ints; ++i) {
                int in_type = t == 0 || ((i % 5) % 2 == 0);
                bad += b[i] != (in_type ? val(id, i) : -9);
              }
            }
            if (bad) {
              if (failures < 10)
                fprintf(stderr, "rank %d: order kind %d %s type %d count %ld segment %ld: %ld "
                                "wrong\n", me, kind, shape ? "chain" : "binomial", t, n,
                        (long)segs[s], bad);
              ++failures;
            }
            free(buf);
            arcoll_tree_free(&tree);
          }
  long total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf("tree_bcast_check P=%d: %d cases, %s\n", P, id, total ? "FAIL" : "OK");
  free(order);
  MPI_Type_free(&vec);
  MPI_Type_free(&st);
  MPI_Finalize();
  return total ? 1 : 0;
}
