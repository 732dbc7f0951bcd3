/**
 * @file trace_replay.cpp
 * @brief Replays the communication of a recorded arcoll trace (point-to-point
 *        messages and collective calls, no computation) on as many ranks as it
 *        has, and prints the placement suite's WORKLOAD line.
 *
 *     trace_replay -t TRACE.arctrace [-only p2p|colls]
 *
 * `-only p2p` replays the point-to-point messages alone, `-only colls` the
 * collective calls alone (which part of a program's communication time a
 * mapping changes).
 * Schedule and approximations: replay_plan.hpp. Rank r of the replay plays
 * world rank r of the trace, so a hostfile given to smpirun / mpiexec places
 * the recorded program's ranks. Result line (wl_common.h): comm_time_s = the
 * largest time over the ranks from a barrier to the end of the replay
 * (seconds; simulated seconds under SMPI), bytes = point-to-point bytes sent,
 * extras: messages, collective calls replayed / skipped / nonblocking ones
 * replayed blocking, receive entries deferred by the deadlock guard, and
 * where the receive steps came from (recvs=trace|senders).
 *
 * Errors (exit 2, message on rank 0's stderr): no -t, a trace the reader
 * rejects (its TraceError names the defect), a rank count other than the
 * trace's, collectives that cannot be replayed in order.
 */
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "replay_plan.hpp"
#include "trace_format.h"

namespace {

using arcoll::replay::Coll;
using arcoll::replay::ReplayPlan;

int fail(int rank, const std::string &msg) {
  if (rank == 0) std::fprintf(stderr, "trace_replay: %s\n", msg.c_str());
  MPI_Finalize();
  return 2;
}

int as_int(uint64_t n) { return n > uint64_t(INT_MAX) ? INT_MAX : int(n); }

struct Buffers {
  std::vector<char> send, recv;
  char *s(uint64_t n) { if (send.size() < n) send.resize(n); return send.data(); }
  char *r(uint64_t n) { if (recv.size() < n) recv.resize(n); return recv.data(); }
};

// One collective call on `c` (replay_plan.hpp: MPI_BYTE, reductions with MPI_BOR).
void run_coll(const Coll &k, MPI_Comm c, Buffers &b) {
  int me, p;
  MPI_Comm_rank(c, &me);
  MPI_Comm_size(c, &p);
  const int n = as_int(k.bytes);
  const uint64_t all = uint64_t(n) * p;
  std::vector<int> counts, displs;
  auto vcounts = [&]() {
    counts.resize(p), displs.resize(p);
    uint64_t off = 0;
    for (int i = 0; i < p; ++i) counts[i] = as_int(k.per_rank[i]), displs[i] = as_int(off), off += counts[i];
    return off;
  };
  switch (k.op) {
    case OP_BARRIER: MPI_Barrier(c); break;
    case OP_BCAST: MPI_Bcast(b.s(n), n, MPI_BYTE, k.root, c); break;
    case OP_REDUCE: MPI_Reduce(b.s(n), b.r(n), n, MPI_BYTE, MPI_BOR, k.root, c); break;
    case OP_ALLREDUCE: MPI_Allreduce(b.s(n), b.r(n), n, MPI_BYTE, MPI_BOR, c); break;
    case OP_SCAN: MPI_Scan(b.s(n), b.r(n), n, MPI_BYTE, MPI_BOR, c); break;
    case OP_EXSCAN: MPI_Exscan(b.s(n), b.r(n), n, MPI_BYTE, MPI_BOR, c); break;
    case OP_GATHER: MPI_Gather(b.s(n), n, MPI_BYTE, b.r(all), n, MPI_BYTE, k.root, c); break;
    case OP_SCATTER: MPI_Scatter(b.s(all), n, MPI_BYTE, b.r(n), n, MPI_BYTE, k.root, c); break;
    case OP_ALLGATHER: MPI_Allgather(b.s(n), n, MPI_BYTE, b.r(all), n, MPI_BYTE, c); break;
    case OP_ALLTOALL: MPI_Alltoall(b.s(all), n, MPI_BYTE, b.r(all), n, MPI_BYTE, c); break;
    case OP_REDUCE_SCATTER_BLOCK: MPI_Reduce_scatter_block(b.s(all), b.r(n), n, MPI_BYTE, MPI_BOR, c); break;
    case OP_GATHERV: {
      const uint64_t tot = vcounts();
      MPI_Gatherv(b.s(counts[me]), counts[me], MPI_BYTE, b.r(tot), counts.data(), displs.data(), MPI_BYTE, k.root, c);
      break;
    }
    case OP_SCATTERV: {
      const uint64_t tot = vcounts();
      MPI_Scatterv(b.s(tot), counts.data(), displs.data(), MPI_BYTE, b.r(counts[me]), counts[me], MPI_BYTE, k.root, c);
      break;
    }
    case OP_ALLGATHERV: {
      const uint64_t tot = vcounts();
      MPI_Allgatherv(b.s(counts[me]), counts[me], MPI_BYTE, b.r(tot), counts.data(), displs.data(), MPI_BYTE, c);
      break;
    }
    default: break;  // not produced by make_replay_plan()
  }
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *path = nullptr;
  const std::string usage = "; usage: trace_replay -t TRACE.arctrace [-only p2p|colls]";
  bool p2p = true, colls = true;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-t") && i + 1 < argc) {
      path = argv[++i];
    } else if (!std::strcmp(argv[i], "-only") && i + 1 < argc && (!std::strcmp(argv[i + 1], "p2p") ||
                                                                  !std::strcmp(argv[i + 1], "colls"))) {
      p2p = !std::strcmp(argv[++i], "p2p"), colls = !p2p;
    } else {
      return fail(rank, std::string("unknown or incomplete argument '") + argv[i] + "'" + usage);
    }
  }
  if (!path) return fail(rank, "no trace given" + usage);
  ReplayPlan plan;
  try {
    arcoll::trace::Trace t = arcoll::trace::Trace::read(path);
    if (t.nranks != size)
      return fail(rank, std::string(path) + " was recorded on " + std::to_string(t.nranks) + " ranks, this run has " +
                            std::to_string(size) + ": run it with -np " + std::to_string(t.nranks));
    plan = arcoll::replay::make_replay_plan(t);
  } catch (const std::exception &e) {
    return fail(rank, e.what());
  }

  std::vector<MPI_Comm> comms(plan.comms.size(), MPI_COMM_NULL);
  comms[0] = MPI_COMM_WORLD;
  for (size_t i = 1; i < comms.size(); ++i) {
    const auto &m = plan.comms[i];
    const auto it = std::find(m.begin(), m.end(), rank);
    MPI_Comm_split(MPI_COMM_WORLD, it == m.end() ? MPI_UNDEFINED : 0, int(it - m.begin()), &comms[i]);
  }

  // Point-to-point sends stay pending until the end, so their buffer is sized once (the largest first part,
  // replay_plan.hpp) and never reallocated; the collectives' buffers (blocking calls) may grow between calls.
  uint64_t largest_part = 0;
  for (const auto &s : plan.ranks[rank])
    for (const auto &m : s.sends) largest_part = std::max(largest_part, arcoll::replay::part_bytes(m.bytes, m.count, 0));
  const std::vector<char> sbuf(largest_part);
  Buffers buf;
  std::vector<MPI_Request> pending, step_reqs;
  std::vector<std::vector<char>> kept;  // buffers of deferred receives
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (auto &s : plan.ranks[rank]) {
    if (!p2p) s.recvs.clear(), s.sends.clear();
    if (!colls) s.colls.clear();
    step_reqs.clear();
    std::vector<char> rb;
    uint64_t need = 0;
    for (const auto &m : s.recvs) need += m.count * m.bytes;
    rb.resize(need);
    uint64_t off = 0;
    for (const auto &m : s.recvs)
      for (uint32_t k = 0; k < m.count; ++k, off += m.bytes) {
        MPI_Request q;
        MPI_Irecv(rb.data() + off, as_int(m.bytes), MPI_BYTE, m.peer, 0, MPI_COMM_WORLD, &q);
        (m.deferred ? pending : step_reqs).push_back(q);
      }
    for (const auto &m : s.sends)
      for (uint32_t k = 0; k < m.count; ++k) {
        const uint64_t part = arcoll::replay::part_bytes(m.bytes, m.count, k);
        MPI_Request q;
        MPI_Isend(sbuf.data(), as_int(part), MPI_BYTE, m.peer, 0, MPI_COMM_WORLD, &q);
        pending.push_back(q);
      }
    for (const auto &c : s.colls) run_coll(c, comms[c.comm], buf);
    MPI_Waitall(int(step_reqs.size()), step_reqs.data(), MPI_STATUSES_IGNORE);
    if (std::any_of(s.recvs.begin(), s.recvs.end(), [](const auto &m) { return m.deferred; }))
      kept.push_back(std::move(rb));
  }
  MPI_Waitall(int(pending.size()), pending.data(), MPI_STATUSES_IGNORE);
  double mine = MPI_Wtime() - t0, most = 0;
  MPI_Reduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  for (size_t i = 1; i < comms.size(); ++i)
    if (comms[i] != MPI_COMM_NULL) MPI_Comm_free(&comms[i]);
  if (rank == 0)
    std::printf("WORKLOAD name=trace_replay ranks=%d iters=1 bytes=%llu comm_time_s=%.9e errors=0 status=OK "
                "messages=%llu colls=%llu skipped_colls=%llu nonblocking_colls=%llu deferred_recvs=%llu recvs=%s\n",
                size, (unsigned long long)plan.p2p_bytes, most, (unsigned long long)plan.messages,
                (unsigned long long)plan.colls, (unsigned long long)plan.skipped_colls,
                (unsigned long long)plan.nonblocking_colls, (unsigned long long)plan.deferred_recvs,
                plan.receives_from_trace ? "trace" : "senders");
  MPI_Finalize();
  return 0;
}
