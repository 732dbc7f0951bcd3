#include "clock_sync.hpp"

#include <vector>

namespace arcoll::profiler {

namespace {
constexpr int kTagPing = 7301, kTagPong = 7302, kTagResult = 7303;
}

bool clock_sync(MPI_Comm comm, int rounds, ClockSample &out, double &cost) {
  // Ranks arrive at different times (e.g. at MPI_Finalize): the barrier keeps
  // that imbalance out of the measured cost.
  if (PMPI_Barrier(comm) != MPI_SUCCESS) return false;
  const double t_start = PMPI_Wtime();
  int rank = 0, size = 1;
  if (PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS || PMPI_Comm_size(comm, &size) != MPI_SUCCESS) return false;
  if (rounds < 1) rounds = 1;
  ClockSample mine{t_start, 0.0, 0.0};
  if (rank > 0) {
    const int parent = tree_parent(rank);
    for (int k = 0; k < rounds; k++) {
      if (PMPI_Recv(nullptr, 0, MPI_BYTE, parent, kTagPing, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS) return false;
      double tr = PMPI_Wtime();
      if (PMPI_Send(&tr, 1, MPI_DOUBLE, parent, kTagPong, comm) != MPI_SUCCESS) return false;
    }
    double res[3];
    if (PMPI_Recv(res, 3, MPI_DOUBLE, parent, kTagResult, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS) return false;
    mine = ClockSample{res[0], res[1], res[2]};
  }
  std::vector<PingPong> pp(rounds);
  for (int child : tree_children(rank, size)) {
    for (int k = 0; k < rounds; k++) {
      pp[k].t_send = PMPI_Wtime();
      if (PMPI_Send(nullptr, 0, MPI_BYTE, child, kTagPing, comm) != MPI_SUCCESS) return false;
      if (PMPI_Recv(&pp[k].t_child, 1, MPI_DOUBLE, child, kTagPong, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        return false;
      pp[k].t_recv = PMPI_Wtime();
    }
    ClockSample c = compose(best_ping(pp.data(), rounds), mine);
    double res[3] = {c.t_local, c.offset, c.rtt};
    if (PMPI_Send(res, 3, MPI_DOUBLE, child, kTagResult, comm) != MPI_SUCCESS) return false;
  }
  out = mine;
  cost = PMPI_Wtime() - t_start;
  return true;
}

}  // namespace arcoll::profiler
