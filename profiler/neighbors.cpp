// Out-neighbours of a communicator's process topology, for the
// neighbourhood collectives' CCS entries (recorder_hooks.h).  The MPI
// standard fixes the order of a neighbourhood collective's send blocks:
// Cartesian: per dimension the neighbour at -1 then at +1 (MPI_Cart_shift's
// source then destination, MPI_PROC_NULL at open boundaries); graph:
// MPI_Graph_neighbors; distributed graph: MPI_Dist_graph_neighbors'
// destinations.
#include <mpi.h>

#include <vector>

#include "recorder_hooks.h"

namespace {

std::vector<int> query(MPI_Comm comm) {
  std::vector<int> out;
  int kind = MPI_UNDEFINED;
  if (PMPI_Topo_test(comm, &kind) != MPI_SUCCESS) return out;
  if (kind == MPI_CART) {
    int nd = 0;
    PMPI_Cartdim_get(comm, &nd);
    for (int d = 0; d < nd; d++) {
      int src = MPI_PROC_NULL, dst = MPI_PROC_NULL;
      PMPI_Cart_shift(comm, d, 1, &src, &dst);
      out.push_back(src);
      out.push_back(dst);
    }
  } else if (kind == MPI_GRAPH) {
    int me = 0, n = 0;
    PMPI_Comm_rank(comm, &me);
    PMPI_Graph_neighbors_count(comm, me, &n);
    out.resize(size_t(n));
    if (n) PMPI_Graph_neighbors(comm, me, n, out.data());
  } else if (kind == MPI_DIST_GRAPH) {
    int indeg = 0, outdeg = 0, weighted = 0;
    PMPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted);
    std::vector<int> src(size_t(indeg) + 1), sw(size_t(indeg) + 1), dw(size_t(outdeg) + 1);
    out.resize(size_t(outdeg) + 1);
    PMPI_Dist_graph_neighbors(comm, indeg, src.data(), weighted ? sw.data() : MPI_UNWEIGHTED,
                              outdeg, out.data(), weighted ? dw.data() : MPI_UNWEIGHTED);
    out.resize(size_t(outdeg));
  }
  return out;
}

int keyval() {
  static const int kv = [] {  // thread-safe initialisation (C++11)
    int k = MPI_KEYVAL_INVALID;
    auto del = [](MPI_Comm, int, void *v, void *) -> int {
      delete static_cast<std::vector<int> *>(v);
      return MPI_SUCCESS;
    };
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del, &k, nullptr);
    return k;
  }();
  return kv;
}

}  // namespace

extern "C" {

const int *arcoll_neighbor_dests(MPI_Comm comm, int *n) {
  void *v = nullptr;
  int flag = 0;
  const int kv = keyval();
  std::vector<int> *d = nullptr;
  if (PMPI_Comm_get_attr(comm, kv, &v, &flag) == MPI_SUCCESS && flag) {
    d = static_cast<std::vector<int> *>(v);
  } else {
    d = new std::vector<int>(query(comm));
    PMPI_Comm_set_attr(comm, kv, d);
  }
  *n = int(d->size());
  return d->data();
}

int64_t *arcoll_neighbor_scratch(int n) {
  thread_local std::vector<int64_t> s;
  if (s.size() < size_t(n) + 1) s.resize(size_t(n) + 1);
  return s.data();
}

}  // extern "C"
