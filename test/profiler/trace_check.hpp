// What trace_check.cpp and trace_check_programs.cpp share: the EXPECT macro
// (prints a failed expectation, counts it in tracecheck::failures) and the
// checks of one recorded program's trace (P: its ranks).
#ifndef ARCOLL_TEST_TRACE_CHECK_HPP
#define ARCOLL_TEST_TRACE_CHECK_HPP

#include <iostream>

#include "trace_reader.hpp"

namespace tracecheck {
inline int failures = 0;
}  // namespace tracecheck

#define EXPECT(cond, msg)                                                              \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      std::cerr << "trace_check: FAIL " << #cond << ": " << msg << "\n";                \
      tracecheck::failures++;                                                          \
    }                                                                                  \
  } while (0)

/** Every trace: P ranks, format version 3, every rank complete with its host, pid and clock
 *  model; exit after entry; call sites named; `ncounters` counter deltas per event (none when 0);
 *  per (rank, communicator) sequence numbers 0..n-1 (`seq_gaps`: increasing, as MPI_Pcontrol(0)
 *  leaves them). trace_check.cpp. */
void check_common(const arcoll::trace::Trace &t, int P, int ncounters, bool seq_gaps = false);
/** coll_all.c: its collectives on MPI_COMM_WORLD (int and _c forms) with their bytes and roots,
 *  one MPI_Ibcast, one MPI_IN_PLACE call, the calls on the split halves and on the
 *  intercommunicator, the communicators' members. trace_check_programs.cpp, as the three below. */
void check_coll(const arcoll::trace::Trace &t, int P);
/** p2p_pattern.c: the ring's CCS (step 0: 400 bytes to the right; step 1: 64 each way), a
 *  barrier at step 2 and a bcast at step 3 whose latest-arriving rank is `delayed`. */
void check_p2p(const arcoll::trace::Trace &t, int P, int delayed);
/** topo_persist.c: neighbourhood collectives on a periodic ring, 3 bcasts paused by
 *  MPI_Pcontrol(0), persistent collectives recorded per start, persistent point-to-point not
 *  recorded as collectives. */
void check_persist(const arcoll::trace::Trace &t, int P);
/** abort_run.c after `arcoll recover`: no rank complete; rank `last` has its 30 broadcasts and
 *  barrier, every rank too with `all`, and nobody more. */
void check_aborted(const arcoll::trace::Trace &t, int P, int last, bool all);

#endif
