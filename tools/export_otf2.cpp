// `arcoll export --otf2`: what is written and how times are derived is in
// export_otf2.hpp. otf2_plan::plan() (export_otf2_plan.cpp) puts every rank's
// events in order with times in global seconds; this file writes them and the
// definitions with the OTF2 library.
#include "export_otf2.hpp"
#include "export_otf2_plan.hpp"

#ifndef ARCOLL_HAVE_OTF2

namespace arcoll::tools {
bool have_otf2() { return false; }
Otf2ExportStats export_otf2(const trace::Trace &, const std::string &dir, const std::string &) {
  throw Otf2Error(dir + ": this arcoll was built without OTF2; install libopen-trace-format2-dev "
                        "(tools/setup.sh does) and configure and build again");
}
}  // namespace arcoll::tools

#else

#include <otf2/otf2.h>

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <unordered_map>
#include <vector>

namespace arcoll::tools {

bool have_otf2() { return true; }

namespace {

using otf2_plan::Ev;
using otf2_plan::Kind;
using trace::CcsEntry;
using trace::CollEvent;
using trace::Trace;

bool blocking(const CollEvent &c) { return !(c.flags & ARCOLL_COLL_NONBLOCKING); }

// ---------------------------------------------------------------- MPI names

const char *const kCallNames[OP_COUNT_] = {
    "Barrier",   "Bcast",          "Reduce",               "Allreduce", "Gather", "Gatherv",
    "Scatter",   "Scatterv",       "Allgather",            "Allgatherv", "Alltoall", "Alltoallv",
    "Alltoallw", "Reduce_scatter", "Reduce_scatter_block", "Scan",      "Exscan",
    "Neighbor_allgather", "Neighbor_allgatherv", "Neighbor_alltoall", "Neighbor_alltoallv",
    "Neighbor_alltoallw"};

const OTF2_CollectiveOp kOtf2Op[OP_COUNT_] = {
    OTF2_COLLECTIVE_OP_BARRIER,   OTF2_COLLECTIVE_OP_BCAST,      OTF2_COLLECTIVE_OP_REDUCE,
    OTF2_COLLECTIVE_OP_ALLREDUCE, OTF2_COLLECTIVE_OP_GATHER,     OTF2_COLLECTIVE_OP_GATHERV,
    OTF2_COLLECTIVE_OP_SCATTER,   OTF2_COLLECTIVE_OP_SCATTERV,   OTF2_COLLECTIVE_OP_ALLGATHER,
    OTF2_COLLECTIVE_OP_ALLGATHERV, OTF2_COLLECTIVE_OP_ALLTOALL,  OTF2_COLLECTIVE_OP_ALLTOALLV,
    OTF2_COLLECTIVE_OP_ALLTOALLW, OTF2_COLLECTIVE_OP_REDUCE_SCATTER, OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK,
    OTF2_COLLECTIVE_OP_SCAN,      OTF2_COLLECTIVE_OP_EXSCAN,
    /* OTF2 has no neighbourhood operations: the matching all-to-all one (the
       region is named MPI_Neighbor_*, so readers still see the call) */
    OTF2_COLLECTIVE_OP_ALLGATHER, OTF2_COLLECTIVE_OP_ALLGATHERV, OTF2_COLLECTIVE_OP_ALLTOALL,
    OTF2_COLLECTIVE_OP_ALLTOALLV, OTF2_COLLECTIVE_OP_ALLTOALLW};

/** "MPI_Bcast", "MPI_Ibcast", "MPI_Bcast_c", "MPI_Ibcast_c"; "MPI_Bcast_init" for the
 *  starts of a persistent collective. */
std::string call_name(const CollEvent &c) {
  std::string n = kCallNames[c.op];
  if (c.flags & ARCOLL_COLL_PERSISTENT) n += "_init";  // a start of the request MPI_<Coll>_init made
  else if (!blocking(c)) n = "I" + std::string(1, static_cast<char>(std::tolower(n[0]))) + n.substr(1);
  return "MPI_" + n + (c.flags & ARCOLL_COLL_LARGE_COUNT ? "_c" : "");
}

OTF2_RegionRole region_role(int op) {
  switch (op) {
    case OP_BARRIER: return OTF2_REGION_ROLE_BARRIER;
    case OP_BCAST: case OP_SCATTER: case OP_SCATTERV: return OTF2_REGION_ROLE_COLL_ONE2ALL;
    case OP_REDUCE: case OP_GATHER: case OP_GATHERV: return OTF2_REGION_ROLE_COLL_ALL2ONE;
    case OP_SCAN: case OP_EXSCAN: case OP_NEIGHBOR_ALLGATHER: case OP_NEIGHBOR_ALLGATHERV:
    case OP_NEIGHBOR_ALLTOALL: case OP_NEIGHBOR_ALLTOALLV: case OP_NEIGHBOR_ALLTOALLW:
      return OTF2_REGION_ROLE_COLL_OTHER;
    default: return OTF2_REGION_ROLE_COLL_ALL2ALL;
  }
}

uint32_t otf2_root(int root) {
  if (root >= 0) return static_cast<uint32_t>(root);
  if (root == ARCOLL_ROOT_MPI_ROOT) return OTF2_COLLECTIVE_ROOT_SELF;
  if (root == ARCOLL_ROOT_PROC_NULL) return OTF2_COLLECTIVE_ROOT_THIS_GROUP;
  return OTF2_COLLECTIVE_ROOT_NONE;
}

/** (sizeSent, sizeReceived) from the one byte count of the trace
 *  (profiler/RECORDER_SEMANTICS.md); 0 where the trace does not record the amount. */
using Sizes = std::pair<uint64_t, uint64_t>;

Sizes coll_sizes(const CollEvent &c, int comm_rank) {
  const uint64_t b = c.bytes;
  const bool mpi_root = c.root == ARCOLL_ROOT_MPI_ROOT, is_root = mpi_root || (c.root >= 0 && c.root == comm_rank);
  switch (c.op) {
    case OP_BARRIER: return {0, 0};
    case OP_BCAST: return is_root ? Sizes{b, 0} : Sizes{0, b};
    case OP_REDUCE: return mpi_root ? Sizes{0, b} : Sizes{b, is_root ? b : 0};
    case OP_ALLREDUCE: case OP_SCAN: case OP_EXSCAN: case OP_ALLTOALL: return {b, b};
    case OP_GATHER: case OP_GATHERV: return mpi_root ? Sizes{0, b} : Sizes{b, 0};
    case OP_SCATTER: case OP_SCATTERV: return mpi_root ? Sizes{b, 0} : Sizes{0, b};
    case OP_ALLTOALLV: case OP_ALLTOALLW: return {b, c.flags & ARCOLL_COLL_IN_PLACE ? b : 0};
    default: return {b, 0};  // allgather(v), reduce_scatter(_block): own contribution / input vector
  }
}

// ---------------------------------------------------------------- OTF2 errors

std::string g_otf2_msg;  // last message of OTF2's error callback

OTF2_ErrorCode on_otf2_error(void *, const char *, uint64_t, const char *, OTF2_ErrorCode code, const char *format,
                             va_list va) {
  char buf[1024] = "";
  if (format) std::vsnprintf(buf, sizeof buf, format, va);
  g_otf2_msg = buf;
  return code;
}

struct Writer {
  std::string dir;
  void check(OTF2_ErrorCode code, const char *what) const {
    if (code == OTF2_SUCCESS) return;
    throw Otf2Error(fmt::format("{}: OTF2 error: {}{} (in OTF2 {})", dir, OTF2_Error_GetDescription(code),
                                g_otf2_msg.empty() ? "" : ": " + g_otf2_msg, what));
  }
  std::unordered_map<std::string, uint32_t> strings;
  uint32_t str(const std::string &s) { return strings.emplace(s, static_cast<uint32_t>(strings.size())).first->second; }
};

OTF2_FlushType pre_flush(void *, OTF2_FileType, OTF2_LocationRef, void *, bool) { return OTF2_FLUSH; }
OTF2_FlushCallbacks kFlush = {pre_flush, nullptr};  // no BufferFlush records

/** Checks DIR/NAME: DIR created if missing (true if it was), no archive NAME in it yet. */
bool prepare_dir(const std::string &dir, const std::string &name) {
  namespace fs = std::filesystem;
  if (name.empty() || name.find('/') != std::string::npos)
    throw Otf2Error(fmt::format("{}: archive name '{}' must be a non-empty file name without '/'", dir, name));
  std::error_code ec;
  const bool created = fs::create_directories(dir, ec);
  struct stat st;
  if (ec || stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw Otf2Error(fmt::format("{}: cannot create the output directory: {}", dir,
                                ec ? ec.message() : std::string("exists and is not a directory")));
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    throw Otf2Error(fmt::format("{}: the output directory is not writable: {}", dir, std::strerror(errno)));
  for (const char *suffix : {".otf2", ".def", ""})
    if (fs::exists(fs::symlink_status(fs::path(dir) / (name + suffix), ec)))
      throw Otf2Error(fmt::format("{}: already holds an OTF2 archive '{}' ({}{}); remove it or choose another "
                                  "directory", dir, name, name, suffix));
  return created;
}

Otf2ExportStats write_archive(const Trace &T, const std::string &dir, const std::string &name);

}  // namespace

Otf2ExportStats export_otf2(const Trace &T, const std::string &dir, const std::string &name) {
  const bool created = prepare_dir(dir, name);
  try {
    return write_archive(T, dir, name);
  } catch (...) {  // leave no partial archive behind (none existed before)
    namespace fs = std::filesystem;
    std::error_code ec;
    for (const char *suffix : {".otf2", ".def", ""}) fs::remove_all(fs::path(dir) / (name + suffix), ec);
    if (created) fs::remove(dir, ec);  // only when empty
    throw;
  }
}

namespace {

Otf2ExportStats write_archive(const Trace &T, const std::string &dir, const std::string &name) {
  const std::vector<std::vector<Ev>> evs = otf2_plan::plan(T);
  const int P = T.nranks;

  Writer W{dir, {}};
  g_otf2_msg.clear();
  struct Callback {  // OTF2's messages go into the exception instead of stderr
    OTF2_ErrorCallback previous = OTF2_Error_RegisterCallback(on_otf2_error, nullptr);
    ~Callback() { OTF2_Error_RegisterCallback(previous, nullptr); }
  } callback;
  OTF2_Archive *ar = OTF2_Archive_Open(dir.c_str(), name.c_str(), OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                                       OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!ar)
    throw Otf2Error(fmt::format("{}: OTF2 error: cannot open the archive '{}' for writing: {}", dir, name, g_otf2_msg));
  struct Closer {
    OTF2_Archive *a;
    ~Closer() { if (a) OTF2_Archive_Close(a); }
  } closer{ar};
  W.check(OTF2_Archive_SetFlushCallbacks(ar, &kFlush, nullptr), "SetFlushCallbacks");
  W.check(OTF2_Archive_SetSerialCollectiveCallbacks(ar), "SetSerialCollectiveCallbacks");
  W.check(OTF2_Archive_SetCreator(ar, "arcoll export"), "SetCreator");

  // Communicators: MPI_COMM_WORLD (0), then the trace's RT_COMM (members = world ranks).
  std::map<uint64_t, uint32_t> comm_ref{{0, 0}};
  std::vector<std::vector<int>> comm_members(1);
  std::vector<std::string> comm_names{"MPI_COMM_WORLD"};
  for (int r = 0; r < P; ++r) comm_members[0].push_back(r);
  auto add_comm = [&](uint64_t id, std::vector<int> members, const std::string &note) {
    members.erase(std::remove(members.begin(), members.end(), -1), members.end());
    comm_ref[id] = static_cast<uint32_t>(comm_members.size());
    comm_members.push_back(std::move(members));
    comm_names.push_back(fmt::format("comm {:#x} (rank {} #{}){}", id, id >> 32, id & 0xffffffffu, note));
  };
  for (const trace::Communicator &c : T.comms)
    if (!comm_ref.count(c.id)) add_comm(c.id, c.world_ranks, "");
  std::map<uint64_t, std::vector<int>> unknown;  // used but never described by RT_COMM
  for (const CollEvent &c : T.colls)
    if (!comm_ref.count(c.comm_id)) unknown[c.comm_id].push_back(c.rank);
  for (auto &[id, ranks] : unknown) {
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    add_comm(id, ranks, ", members not recorded: the ranks that called it");
  }

  std::map<std::string, std::pair<uint32_t, int>> regions;  // name -> (ref, op)
  std::map<std::pair<uint32_t, int>, int> comm_rank;          // (comm ref, world rank) -> rank in comm
  enum : OTF2_AttributeRef { kAttrCallsite, kAttrStep, kAttrMessages };
  OTF2_AttributeList *attrs = OTF2_AttributeList_New();
  struct AttrFree {
    OTF2_AttributeList *l;
    ~AttrFree() { OTF2_AttributeList_Delete(l); }
  } attr_free{attrs};

  double t0 = std::numeric_limits<double>::infinity();
  for (auto &v : evs)
    for (const Ev &e : v) t0 = std::min(t0, e.t);
  Otf2ExportStats st;
  st.locations = static_cast<uint64_t>(P);
  std::vector<uint64_t> nevents(P, 0);
  uint64_t max_tick = 0;
  W.check(OTF2_Archive_OpenEvtFiles(ar), "OpenEvtFiles");
  for (int r = 0; r < P; ++r) {
    OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, static_cast<OTF2_LocationRef>(r));
    if (!w) W.check(OTF2_ERROR_INVALID, "GetEvtWriter");
    uint64_t last = 0;
    for (const Ev &e : evs[r]) {
      uint64_t tick = static_cast<uint64_t>(std::llround(std::max(0.0, e.t - t0) * 1e9));
      if (tick < last) tick = last, ++st.clamped;
      last = tick;
      OTF2_ErrorCode rc = OTF2_SUCCESS;
      if (e.kind == Kind::Send || e.kind == Kind::Recv) {
        const CcsEntry &m = T.ccs[e.idx];
        W.check(OTF2_AttributeList_AddUint64(attrs, kAttrStep, m.step), "AttributeList_AddUint64");
        W.check(OTF2_AttributeList_AddUint32(attrs, kAttrMessages, m.count), "AttributeList_AddUint32");
        const auto tag = static_cast<uint32_t>(m.step);
        rc = e.kind == Kind::Send ? OTF2_EvtWriter_MpiSend(w, attrs, tick, m.dst, 0, tag, m.bytes)
                                  : OTF2_EvtWriter_MpiRecv(w, attrs, tick, m.src, 0, tag, m.bytes);
        st.messages += e.kind == Kind::Send;
      } else {
        const CollEvent &c = T.colls[e.idx];
        auto reg = regions.emplace(call_name(c), std::make_pair(static_cast<uint32_t>(regions.size()), c.op));
        const uint32_t region = reg.first->second.first, comm = comm_ref.at(c.comm_id);
        switch (e.kind) {
          case Kind::Enter:
            W.check(OTF2_AttributeList_AddStringRef(attrs, kAttrCallsite, W.str(c.callsite)),
                    "AttributeList_AddStringRef");
            rc = OTF2_EvtWriter_Enter(w, attrs, tick, region);
            ++st.calls;
            break;
          case Kind::CollBegin: rc = OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, tick); break;
          case Kind::CollEnd: {
            auto cr = comm_rank.find({comm, c.rank});
            if (cr == comm_rank.end()) {
              const auto &mem = comm_members[comm];
              const auto pos = std::find(mem.begin(), mem.end(), c.rank);
              cr = comm_rank.emplace(std::make_pair(comm, c.rank),
                                     pos == mem.end() ? -1 : static_cast<int>(pos - mem.begin())).first;
            }
            const auto [sent, recvd] = coll_sizes(c, cr->second);
            rc = OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, tick, kOtf2Op[c.op], comm, otf2_root(c.root), sent, recvd);
            ++st.collectives;
            break;
          }
          default: rc = OTF2_EvtWriter_Leave(w, nullptr, tick, region); break;
        }
      }
      W.check(rc, "event writing");
      ++nevents[r];
    }
    max_tick = std::max(max_tick, last);
    st.events += nevents[r];
    W.check(OTF2_Archive_CloseEvtWriter(ar, w), "CloseEvtWriter");
  }
  W.check(OTF2_Archive_CloseEvtFiles(ar), "CloseEvtFiles");
  W.check(OTF2_Archive_OpenDefFiles(ar), "OpenDefFiles");
  for (int r = 0; r < P; ++r) {
    OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(ar, static_cast<OTF2_LocationRef>(r));
    if (!d) W.check(OTF2_ERROR_INVALID, "GetDefWriter");
    W.check(OTF2_Archive_CloseDefWriter(ar, d), "CloseDefWriter");
  }
  W.check(OTF2_Archive_CloseDefFiles(ar), "CloseDefFiles");

  // Global definitions: every string id is taken before the strings are written.
  OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(ar);
  if (!g) W.check(OTF2_ERROR_INVALID, "GetGlobalDefWriter");
  W.check(OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, max_tick + 1, OTF2_UNDEFINED_TIMESTAMP),
          "WriteClockProperties");
  const uint32_t s_empty = W.str(""), s_mpi = W.str("MPI");
  std::vector<std::string> hosts;
  std::vector<uint32_t> host_of(P);
  for (int r = 0; r < P; ++r) {
    std::string h = r < static_cast<int>(T.ranks.size()) && !T.ranks[r].host.empty() ? T.ranks[r].host : "unknown";
    auto it = std::find(hosts.begin(), hosts.end(), h);
    host_of[r] = static_cast<uint32_t>(it - hosts.begin()) + 1;
    if (it == hosts.end()) hosts.push_back(h);
  }
  const uint32_t s_machine = W.str("machine"), s_node = W.str("node");
  std::vector<uint32_t> s_host, s_group, s_loc, s_comm, s_region;
  for (auto &h : hosts) s_host.push_back(W.str(h));
  for (int r = 0; r < P; ++r) s_group.push_back(W.str(fmt::format("MPI Rank {}", r)));
  for (int r = 0; r < P; ++r) s_loc.push_back(W.str(fmt::format("rank {}", r)));
  for (auto &n : comm_names) s_comm.push_back(W.str(n));
  std::vector<std::pair<std::string, std::pair<uint32_t, int>>> region_list(regions.begin(), regions.end());
  std::sort(region_list.begin(), region_list.end(),  // OTF2 wants definitions in id order
            [](auto &x, auto &y) { return x.second.first < y.second.first; });
  for (auto &reg : region_list) s_region.push_back(W.str(reg.first));
  const uint32_t s_attr[3][2] = {{W.str("arcoll callsite"), W.str("call site: file:line (function) [module+0xoffset], or module+0xoffset")},
                                 {W.str("arcoll step"), W.str("communication step of the sender (CCS)")},
                                 {W.str("arcoll messages"), W.str("messages aggregated in this send/receive")}};
  std::vector<std::pair<uint32_t, const std::string *>> by_id;
  for (auto &kv : W.strings) by_id.emplace_back(kv.second, &kv.first);
  std::sort(by_id.begin(), by_id.end());
  for (auto &[id, s] : by_id) W.check(OTF2_GlobalDefWriter_WriteString(g, id, s->c_str()), "WriteString");
  W.check(OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_MPI, s_mpi, OTF2_PARADIGM_CLASS_PROCESS),
          "WriteParadigm");
  const OTF2_Type attr_type[3] = {OTF2_TYPE_STRING, OTF2_TYPE_UINT64, OTF2_TYPE_UINT32};
  for (uint32_t a = 0; a < 3; ++a)
    W.check(OTF2_GlobalDefWriter_WriteAttribute(g, a, s_attr[a][0], s_attr[a][1], attr_type[a]), "WriteAttribute");
  W.check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, s_machine, s_machine, OTF2_UNDEFINED_SYSTEM_TREE_NODE),
          "WriteSystemTreeNode");
  for (size_t h = 0; h < hosts.size(); ++h)
    W.check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, static_cast<uint32_t>(h + 1), s_host[h], s_node, 0),
            "WriteSystemTreeNode");
  for (int r = 0; r < P; ++r)
    W.check(OTF2_GlobalDefWriter_WriteLocationGroup(g, r, s_group[r], OTF2_LOCATION_GROUP_TYPE_PROCESS, host_of[r],
                                                    OTF2_UNDEFINED_LOCATION_GROUP), "WriteLocationGroup");
  for (int r = 0; r < P; ++r)
    W.check(OTF2_GlobalDefWriter_WriteLocation(g, r, s_loc[r], OTF2_LOCATION_TYPE_CPU_THREAD, nevents[r], r),
            "WriteLocation");
  for (size_t i = 0; i < region_list.size(); ++i)
    W.check(OTF2_GlobalDefWriter_WriteRegion(g, region_list[i].second.first, s_region[i], s_region[i], s_empty,
                                             region_role(region_list[i].second.second), OTF2_PARADIGM_MPI,
                                             OTF2_REGION_FLAG_NONE, s_empty, 0, 0), "WriteRegion");
  std::vector<uint64_t> all(P);
  for (int r = 0; r < P; ++r) all[r] = static_cast<uint64_t>(r);
  W.check(OTF2_GlobalDefWriter_WriteGroup(g, 0, s_empty, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                          OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(P), all.data()), "WriteGroup");
  for (size_t c = 0; c < comm_members.size(); ++c) {
    std::vector<uint64_t> m(comm_members[c].begin(), comm_members[c].end());
    W.check(OTF2_GlobalDefWriter_WriteGroup(g, static_cast<uint32_t>(c + 1), s_empty, OTF2_GROUP_TYPE_COMM_GROUP,
                                            OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(m.size()),
                                            m.data()), "WriteGroup");
    W.check(OTF2_GlobalDefWriter_WriteComm(g, static_cast<uint32_t>(c), s_comm[c], static_cast<uint32_t>(c + 1),
                                           OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE), "WriteComm");
  }
  W.check(OTF2_Archive_CloseGlobalDefWriter(ar, g), "CloseGlobalDefWriter");
  closer.a = nullptr;
  W.check(OTF2_Archive_Close(ar), "Close");
  st.anchor = (std::filesystem::path(dir) / (name + ".otf2")).string();
  st.span_s = static_cast<double>(max_tick) * 1e-9;
  return st;
}

}  // namespace
}  // namespace arcoll::tools

#endif
