// Persistent collectives (MPI-4 MPI_<Coll>_init, MPI_Neighbor_<coll>_init):
// what each init call set up, recorded again at every MPI_Start /
// MPI_Startall of its request (recorder_hooks.h, profiler/README.md).
#include <mpi.h>

#include <atomic>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "recorder_hooks.h"

namespace {

struct Persistent {
  int op = 0;
  unsigned flags = 0;
  int root = ARCOLL_NO_ROOT;
  MPI_Comm comm = MPI_COMM_NULL;  // the user's handle (a start after MPI_Comm_free is not supported)
  int64_t bytes = 0;
  std::vector<int> dests;        // neighbourhood collectives: out-neighbours
  std::vector<int64_t> each;     // and the bytes sent to each
  void *ra = nullptr;
};

struct Table {
  std::mutex mu;
  std::unordered_map<MPI_Request, Persistent> live;
  std::atomic<int> count{0};
};

Table &T() {
  static Table *t = new Table;  // never destroyed: wrappers may run during exit
  return *t;
}

}  // namespace

extern "C" {

int arcoll_persistent_count(void) { return T().count.load(std::memory_order_relaxed); }

void arcoll_persistent_init(MPI_Request req, int op, unsigned flags, int root, MPI_Comm comm,
                            int64_t bytes, int n, const int *dests, const int64_t *each, void *ra) {
  if (req == MPI_REQUEST_NULL) return;
  Persistent p;
  p.op = op;
  p.flags = flags;
  p.root = root;
  p.comm = comm;
  p.bytes = bytes;
  if (n > 0 && dests && each) {
    p.dests.assign(dests, dests + n);
    p.each.assign(each, each + n);
  }
  p.ra = ra;
  Table &t = T();
  std::lock_guard<std::mutex> lk(t.mu);
  t.live[req] = std::move(p);
  t.count.store(int(t.live.size()), std::memory_order_relaxed);
}

void arcoll_persistent_started(const arcoll_coll_ctx *ctx, int count, const MPI_Request *reqs) {
  Table &t = T();
  std::vector<Persistent> started;
  {
    std::lock_guard<std::mutex> lk(t.mu);
    for (int i = 0; i < count; i++) {
      auto it = t.live.find(reqs[i]);
      if (it != t.live.end()) started.push_back(it->second);
    }
  }
  bool first = true;
  for (const Persistent &p : started) {
    arcoll_coll_ctx c = *ctx;
    if (!first)  // the counters' deltas belong to the first start of a Startall
      for (long long &v : c.ctr) v = 0;
    first = false;
    for (size_t i = 0; i < p.dests.size(); i++) arcoll_p2p_send(p.dests[i], p.comm, p.each[i]);
    arcoll_coll_end(&c, MPI_SUCCESS, p.op, p.flags, p.root, p.comm, p.bytes, p.ra);
  }
}

void arcoll_persistent_free(MPI_Request req) {
  Table &t = T();
  std::lock_guard<std::mutex> lk(t.mu);
  t.live.erase(req);
  t.count.store(int(t.live.size()), std::memory_order_relaxed);
}

}  // extern "C"
