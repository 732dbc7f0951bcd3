#include "clock_sync.hpp"

namespace arcoll::profiler {

namespace {
constexpr int kTagPing = 7301, kTagPong = 7302, kTagResult = 7303;
}

bool clock_sync(MPI_Comm comm, int rounds, ClockSample &out) {
  int rank = 0, size = 1;
  if (PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS || PMPI_Comm_size(comm, &size) != MPI_SUCCESS) return false;
  if (rounds < 1) rounds = 1;
  if (rank == 0) {
    out = ClockSample{PMPI_Wtime(), 0.0, 0.0};
    for (int r = 1; r < size; r++) {
      double best[3] = {0, 0, -1};  // t_r, offset, rtt
      for (int k = 0; k < rounds; k++) {
        double tr = 0;
        double t0 = PMPI_Wtime();
        if (PMPI_Send(nullptr, 0, MPI_BYTE, r, kTagPing, comm) != MPI_SUCCESS) return false;
        if (PMPI_Recv(&tr, 1, MPI_DOUBLE, r, kTagPong, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS) return false;
        double t1 = PMPI_Wtime();
        if (best[2] < 0 || t1 - t0 < best[2]) {
          best[0] = tr;
          best[1] = 0.5 * (t0 + t1) - tr;
          best[2] = t1 - t0;
        }
      }
      if (PMPI_Send(best, 3, MPI_DOUBLE, r, kTagResult, comm) != MPI_SUCCESS) return false;
    }
    return true;
  }
  for (int k = 0; k < rounds; k++) {
    if (PMPI_Recv(nullptr, 0, MPI_BYTE, 0, kTagPing, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS) return false;
    double tr = PMPI_Wtime();
    if (PMPI_Send(&tr, 1, MPI_DOUBLE, 0, kTagPong, comm) != MPI_SUCCESS) return false;
  }
  double best[3];
  if (PMPI_Recv(best, 3, MPI_DOUBLE, 0, kTagResult, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS) return false;
  out = ClockSample{best[0], best[1], best[2]};
  return true;
}

}  // namespace arcoll::profiler
