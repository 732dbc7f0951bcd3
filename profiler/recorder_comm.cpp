// Communicator ids and call sites of the recorder; see recorder_state.hpp.

#include "recorder_state.hpp"

namespace arcoll::profiler::rec {

int comm_delete_fn(MPI_Comm, int, void *attr, void *) {
  State &s = S();
  ++s.comm_gen;  // the handle may be reused for another communicator
  delete static_cast<CommInfo *>(attr);
  return MPI_SUCCESS;
}

/** World ranks of the members of `g` (in group order). */
std::vector<int> world_ranks_of(MPI_Group g) {
  int n = 0;
  PMPI_Group_size(g, &n);
  std::vector<int> in(n), out(n, MPI_UNDEFINED);
  for (int i = 0; i < n; i++) in[i] = i;
  MPI_Group wg;
  PMPI_Comm_group(MPI_COMM_WORLD, &wg);
  if (n) PMPI_Group_translate_ranks(g, n, in.data(), wg, out.data());
  PMPI_Group_free(&wg);
  for (int &w : out)
    if (w == MPI_UNDEFINED) w = -1;
  return out;
}

/** Cached info about `comm` (created on first use; local, not collective). */
CommInfo *comm_info_slow(MPI_Comm comm) {
  State &s = S();
  void *v = nullptr;
  int flag = 0;
  if (PMPI_Comm_get_attr(comm, s.keyval, &v, &flag) == MPI_SUCCESS && flag) {
    s.cached_comm = comm, s.cached_ci = static_cast<CommInfo *>(v), s.cached_gen = s.comm_gen;
    return s.cached_ci;
  }
  auto *ci = new CommInfo;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  ci->inter = inter != 0;
  PMPI_Comm_rank(comm, &ci->rank);
  PMPI_Comm_size(comm, &ci->local_size);
  MPI_Group g;
  if (ci->inter) {
    PMPI_Comm_remote_size(comm, &ci->peers);
    PMPI_Comm_remote_group(comm, &g);
  } else {
    ci->peers = ci->local_size;
    PMPI_Comm_group(comm, &g);
  }
  ci->peer_world = world_ranks_of(g);
  PMPI_Group_free(&g);
  PMPI_Comm_set_attr(comm, s.keyval, ci);
  return ci;
}

/** Assigns the communicator id (collective over `comm`, first collective only) and writes RT_COMM. */
void ensure_comm_id(CommInfo *ci, MPI_Comm comm) {
  if (ci->id_assigned) return;
  State &s = S();
  MPI_Comm c = comm;
  MPI_Comm merged = MPI_COMM_NULL;
  if (ci->inter) {
    if (PMPI_Intercomm_merge(comm, 0, &merged) != MPI_SUCCESS) return;
    c = merged;
  }
  int r = 0;
  PMPI_Comm_rank(c, &r);
  uint64_t id = 0;
  if (r == 0) {
    RecLock lk(s);
    id = (uint64_t(uint32_t(s.world_rank)) << 32) | ++s.comm_counter;
  }
  PMPI_Bcast(&id, 1, MPI_UINT64_T, 0, c);
  MPI_Group g;
  PMPI_Comm_group(c, &g);
  std::vector<int> wr = world_ranks_of(g);
  PMPI_Group_free(&g);
  if (merged != MPI_COMM_NULL) PMPI_Comm_free(&merged);
  ci->id = id;
  ci->id_assigned = true;
  struct {
    uint64_t id;
    uint32_t size, pad;
  } h{id, uint32_t(wr.size()), 0};
  RecLock lk(s);
  put(RT_COMM, &h, sizeof h, wr.data(), uint32_t(wr.size() * sizeof(int32_t)));
}

uint32_t callsite_id_locked(const void *ra) {
  State &s = S();
  std::string name;  // set only for a new site (callsite.hpp)
  uint32_t id = s.callsites.id(ra, name);
  if (!name.empty()) put(RT_CALLSITE, &id, sizeof id, name.data(), uint32_t(name.size()));
  return id;
}

}  // namespace arcoll::profiler::rec
