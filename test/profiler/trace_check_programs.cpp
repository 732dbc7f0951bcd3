// trace_check's expectations on the calls of each recorded program (coll_all.c,
// p2p_pattern.c, topo_persist.c, abort_run.c): see trace_check.hpp.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "trace_check.hpp"

using namespace arcoll::trace;

void check_coll(const Trace &t, int P) {
  const bool large = true;  // MPICH 4: every _c form is called
  std::map<int, std::vector<const CollEvent *>> by_rank;
  for (auto &e : t.colls) by_rank[e.rank].push_back(&e);
  EXPECT(int(by_rank.size()) == P, "ranks with events " << by_rank.size());
  const uint64_t blk = 16, all = 16 * uint64_t(P);
  // op -> bytes of every rank (int and _c form), on MPI_COMM_WORLD.
  std::map<int, uint64_t> bytes = {
      {OP_BCAST, blk},     {OP_REDUCE, blk},     {OP_ALLREDUCE, blk},      {OP_GATHER, blk},
      {OP_GATHERV, blk},   {OP_SCATTER, blk},    {OP_SCATTERV, blk},       {OP_ALLGATHER, blk},
      {OP_ALLGATHERV, blk}, {OP_ALLTOALL, all},  {OP_ALLTOALLV, all},      {OP_ALLTOALLW, all},
      {OP_REDUCE_SCATTER, all}, {OP_REDUCE_SCATTER_BLOCK, all}, {OP_SCAN, blk}, {OP_EXSCAN, blk}};
  std::map<int, int> roots = {{OP_BCAST, 1 % P}, {OP_REDUCE, 0}, {OP_GATHER, 0}, {OP_GATHERV, 0},
                              {OP_SCATTER, 0}, {OP_SCATTERV, 0}};
  uint64_t split_id = 0;
  for (auto &[r, ev] : by_rank) {
    std::map<int, int> plain, lc;
    int ibcast = 0, inplace = 0, split = 0, inter = 0;
    uint64_t last_step = 0;
    bool first = true;
    for (const CollEvent *e : ev) {
      const bool nb = e->flags & ARCOLL_COLL_NONBLOCKING;
      if (!(e->flags & ARCOLL_COLL_NONBLOCKING)) {
        EXPECT(first || e->step > last_step, "rank " << r << " step not increasing at " << op_name(e->op));
        last_step = e->step;
        first = false;
      }
      if (e->comm_id == 0 && !nb && !(e->flags & ARCOLL_COLL_IN_PLACE)) {
        (e->flags & ARCOLL_COLL_LARGE_COUNT ? lc : plain)[e->op]++;
        if (e->op == OP_BARRIER) {
          EXPECT(e->bytes == 0, "barrier bytes");
        } else {
          EXPECT(e->bytes == bytes[e->op], "rank " << r << " " << op_name(e->op) << " bytes " << e->bytes
                                                    << " expected " << bytes[e->op]);
        }
        if (roots.count(e->op))
          EXPECT(e->root == roots[e->op], "rank " << r << " " << op_name(e->op) << " root " << e->root);
        else
          EXPECT(e->root == ARCOLL_ROOT_NONE, "rank " << r << " " << op_name(e->op) << " root " << e->root);
      } else if (nb) {
        ibcast++;
        EXPECT(e->op == OP_BCAST && e->bytes == 64 && e->root == 0 && e->comm_id == 0, "ibcast fields");
      } else if (e->flags & ARCOLL_COLL_IN_PLACE) {
        inplace++;
        EXPECT(e->op == OP_ALLREDUCE && e->bytes == 8 && e->comm_id == 0, "in-place allreduce fields");
      } else if (e->op == OP_ALLREDUCE) {
        split++;
        EXPECT(e->bytes == 4, "split allreduce bytes " << e->bytes);
      } else {
        inter++;
        EXPECT(e->op == OP_BCAST, "intercomm op " << op_name(e->op));
        int want_root = r % 2 ? 0 : (r == 0 ? ARCOLL_ROOT_MPI_ROOT : ARCOLL_ROOT_PROC_NULL);
        EXPECT(e->root == want_root, "rank " << r << " intercomm root " << e->root << " expected " << want_root);
        EXPECT(e->bytes == (want_root == ARCOLL_ROOT_PROC_NULL ? 0u : 4u), "intercomm bytes " << e->bytes);
      }
    }
    for (int op = 0; op <= OP_EXSCAN; op++) {  // coll_all.c calls no neighbourhood collective
      EXPECT(plain[op] == 1, "rank " << r << " " << op_name(op) << " int-form calls " << plain[op]);
      EXPECT(lc[op] == (op == OP_BARRIER || !large ? 0 : 1),
             "rank " << r << " " << op_name(op) << " _c calls " << lc[op]);
    }
    EXPECT(ibcast == 1 && inplace == 1 && split == 2, "rank " << r << " ibcast/inplace/split " << ibcast << inplace << split);
    EXPECT(inter == (P >= 2 ? 1 : 0), "rank " << r << " intercomm calls " << inter);
  }
  // Communicators: world (0), two halves, the intercommunicator.
  std::map<uint64_t, std::vector<int>> comms;
  for (auto &c : t.comms) comms[c.id] = c.world_ranks;
  EXPECT(comms.count(0) && int(comms[0].size()) == P, "world communicator");
  std::set<std::vector<int>> halves;
  for (auto &e : t.colls)
    if (e.op == OP_ALLREDUCE && e.comm_id != 0) {
      EXPECT(comms.count(e.comm_id), "RT_COMM for " << e.comm_id);
      const auto &wr = comms[e.comm_id];
      std::vector<int> want;
      for (int q = e.rank % 2; q < P; q += 2) want.push_back(q);
      EXPECT(wr == want, "split comm ranks of rank " << e.rank);
      halves.insert(wr);
      split_id = e.comm_id;
    }
  EXPECT(int(halves.size()) == (P >= 2 ? 2 : 1), "distinct halves " << halves.size());
  (void)split_id;
  EXPECT(t.ccs.empty(), "no point-to-point traffic expected, got " << t.ccs.size() << " CCS entries");
}

void check_p2p(const Trace &t, int P, int delayed) {
  std::map<std::tuple<uint64_t, int, int>, std::pair<uint64_t, uint32_t>> want;
  for (int r = 0; r < P; r++) {
    int right = (r + 1) % P, left = (r + P - 1) % P;
    want[{0, r, right}] = {400, 1};
    auto &a = want[{1, r, right}];
    a.first += 64, a.second++;
    auto &b = want[{1, r, left}];
    b.first += 64, b.second++;
  }
  EXPECT(t.ccs.size() == want.size(), "CCS entries " << t.ccs.size() << " expected " << want.size());
  for (auto &c : t.ccs) {
    auto it = want.find({c.step, c.src, c.dst});
    if (it == want.end()) {
      EXPECT(false, "unexpected CCS step " << c.step << " " << c.src << "->" << c.dst);
      continue;
    }
    EXPECT(c.bytes == it->second.first && c.count == it->second.second,
           "CCS step " << c.step << " " << c.src << "->" << c.dst << " bytes " << c.bytes << " count " << c.count);
    // step 0's MPI_Sendrecv blocks, step 1's MPI_Isend do not (arcoll_rec_ccs::blocking)
    EXPECT(c.blocking == (c.step == 0 ? 1u : 0u), "CCS step " << c.step << " " << c.src << "->" << c.dst
                                                               << " blocking " << c.blocking);
  }
  // Receives in the receiver's step: the Sendrecv's (size from the status,
  // MPI_STATUS_IGNORE passed) in step 0, the two MPI_Irecv in step 1.
  std::map<std::tuple<uint64_t, int, int>, std::pair<uint64_t, uint32_t>> want_recv;
  for (int r = 0; r < P; r++) {
    int right = (r + 1) % P, left = (r + P - 1) % P;
    want_recv[{0, left, r}] = {400, 1};
    for (int from : {left, right}) {
      auto &a = want_recv[{1, from, r}];
      a.first += 64, a.second++;
    }
  }
  EXPECT(t.recvs.size() == want_recv.size(), "receive entries " << t.recvs.size() << " expected " << want_recv.size());
  for (auto &c : t.recvs) {
    auto it = want_recv.find({c.step, c.src, c.dst});
    EXPECT(it != want_recv.end() && c.bytes == it->second.first && c.count == it->second.second && c.blocking == 0,
           "receive step " << c.step << " " << c.src << "->" << c.dst << " bytes " << c.bytes << " count " << c.count);
  }
  int nb = 0, nbar = 0;
  double first = 1e300;
  std::map<int, double> entry;
  for (auto &e : t.colls) {
    if (e.op == OP_BARRIER) {
      nbar++;
      EXPECT(e.step == 2, "barrier step " << e.step);
    } else if (e.op == OP_BCAST) {
      nb++;
      EXPECT(e.step == 3 && e.bytes == 16 && e.root == 0, "bcast step/bytes/root");
      entry[e.rank] = e.t_entry;
      first = std::min(first, e.t_entry);
    } else {
      EXPECT(false, "unexpected op " << op_name(e.op));
    }
  }
  EXPECT(nb == P && nbar == P, "bcast " << nb << " barrier " << nbar);
  int latest = -1;
  double best = -1;
  for (auto &[r, te] : entry)
    if (te - first > best) best = te - first, latest = r;
  EXPECT(latest == delayed, "latest-arriving rank " << latest << " expected " << delayed);
}

// topo_persist.c: neighbourhood collectives on a periodic ring, 3 bcasts
// paused by MPI_Pcontrol(0), persistent collectives recorded per start,
// persistent point-to-point not recorded as collectives.
void check_persist(const Trace &t, int P) {
  const unsigned NB = ARCOLL_COLL_NONBLOCKING, PE = ARCOLL_COLL_PERSISTENT, LC = ARCOLL_COLL_LARGE_COUNT;
  // (op, flags, bytes) -> calls per rank
  std::map<std::tuple<int, unsigned, uint64_t>, int> want = {
      {{OP_NEIGHBOR_ALLGATHER, 0, 24}, 1}, {{OP_NEIGHBOR_ALLTOALL, 0, 16}, 1},
      {{OP_NEIGHBOR_ALLTOALLV, 0, 12}, 1}, {{OP_NEIGHBOR_ALLTOALLW, 0, 12}, 1},
      {{OP_NEIGHBOR_ALLGATHERV, 0, 8}, 1}, {{OP_NEIGHBOR_ALLTOALL, NB, 8}, 1},
      {{OP_NEIGHBOR_ALLTOALL, LC, 16}, 1}, {{OP_BCAST, NB | PE, 16}, 5},
      {{OP_ALLREDUCE, NB | PE, 16}, 3},    {{OP_BARRIER, NB | PE, 0}, 3},
      {{OP_NEIGHBOR_ALLTOALL, NB | PE, 8}, 2}, {{OP_BARRIER, 0, 0}, 1}};
  std::map<int, std::map<std::tuple<int, unsigned, uint64_t>, int>> got;
  std::map<int, uint64_t> world_max, world_n;
  for (auto &e : t.colls) {
    got[e.rank][{e.op, e.flags, e.bytes}]++;
    if (e.op == OP_BCAST) EXPECT(e.root == 0, "bcast root " << e.root);
    if (e.comm_id == 0) world_max[e.rank] = std::max(world_max[e.rank], e.seq), world_n[e.rank]++;
  }
  for (int r = 0; r < P; r++) {
    EXPECT(got[r] == want, "rank " << r << ": " << got[r].size() << " kinds of calls, expected " << want.size());
    for (auto &[k, n] : want)
      EXPECT(got[r][k] == n, "rank " << r << " " << op_name(std::get<0>(k)) << " flags " << std::get<1>(k)
                                       << " bytes " << std::get<2>(k) << ": " << got[r][k] << " calls, expected " << n);
    // world: 1 barrier + 5 + 3 + 3 starts recorded, 3 paused bcasts numbered
    EXPECT(world_n[r] == 12 && world_max[r] + 1 == 15, "rank " << r << " world calls " << world_n[r]
                                                             << ", last seq " << world_max[r]);
  }
  // CCS: every neighbourhood byte went to the ring neighbours; persistent
  // point-to-point is not recorded (MPI_Start carries no destination)
  std::map<int, uint64_t> sent;
  for (auto &c : t.ccs) {
    const int left = (c.src + P - 1) % P, right = (c.src + 1) % P;
    EXPECT(c.dst == left || c.dst == right, "CCS " << c.src << "->" << c.dst << " is not a ring neighbour");
    sent[c.src] += c.bytes;
  }
  for (int r = 0; r < P; r++)
    EXPECT(sent[r] == 24 + 16 + 12 + 12 + 8 + 8 + 16 + 2 * 8,
           "rank " << r << " neighbourhood bytes in the CCS " << sent[r]);
}

// abort_run.c after `arcoll recover`: no rank complete; rank `last` (it
// flushed at MPI_Abort / SIGTERM) has its 30 broadcasts and barrier, every
// rank too with `all` (ARCOLL_FLUSH_SECONDS=0), and nobody more.
void check_aborted(const Trace &t, int P, int last, bool all) {
  std::map<int, int> n;
  for (auto &e : t.colls) {
    if (e.seq < 30)
      EXPECT(e.op == OP_BCAST && e.bytes == 16 && e.root == 0, "rank " << e.rank << " " << op_name(e.op));
    else
      EXPECT(e.op == OP_BARRIER, "rank " << e.rank << " call " << e.seq << " " << op_name(e.op));
    EXPECT(e.seq == uint64_t(n[e.rank]), "rank " << e.rank << " seq " << e.seq);
    n[e.rank]++;
  }
  for (int r = 0; r < P; r++) {
    EXPECT(!t.ranks[r].complete, "rank " << r << " complete after an abort");
    EXPECT(n[r] <= 31, "rank " << r << " " << n[r] << " calls");
    if (all || r == last)
      EXPECT(n[r] == 31, "rank " << r << " has " << n[r] << " of its 30 broadcasts and 1 barrier");
  }
}
