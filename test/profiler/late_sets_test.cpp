// Unit tests of profiler/late_sets.hpp (what `arcoll tune` writes): late
// ranks found per (op, communicator, root, root's call site) from their own
// delays, the threshold and the noise rule, first calls left out, and the
// call-site names' module + offset, hashed as libarcoll's site keys are.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "late_sets.hpp"
#include "site_hash.h"
#include "trace_format.h"

extern "C" uint64_t arcoll_site_key(const void *ret);

using namespace arcoll::trace;

namespace {

constexpr double us = 1e-6, ms = 1e-3;

// P ranks in MPI_COMM_WORLD (id 0) and, when `sub`, ranks 1..P-1 in
// communicator 7 (its rank r = world rank r + 1).
Trace ranks(int P, bool sub = false) {
  Trace t;
  t.nranks = P;
  t.ranks.resize(std::size_t(P));
  for (int r = 0; r < P; r++) t.ranks[std::size_t(r)].rank = r;
  Communicator w{};
  w.id = 0;
  for (int r = 0; r < P; r++) w.world_ranks.push_back(r);
  t.comms.push_back(w);
  if (sub) {
    Communicator c{};
    c.id = 7;
    for (int r = 1; r < P; r++) c.world_ranks.push_back(r);
    t.comms.push_back(c);
  }
  return t;
}

// `calls` back-to-back calls of `op` from `root` on communicator `comm`
// (members: its world ranks), after a barrier; before each call every member
// computes 100 us, and world rank r extra(r) seconds more.
void loop(Trace &t, int op, uint64_t comm, int root, int calls, const std::function<double(int)> &extra,
          const char *site) {
  std::vector<int> members;
  for (const Communicator &c : t.comms)
    if (c.id == comm) members = c.world_ranks;
  double now = 1.0;
  std::vector<std::vector<CollEvent>> per(t.ranks.size());
  for (int r : members) {
    CollEvent b{};
    b.rank = r, b.comm_id = comm, b.seq = 0, b.t_entry = now, b.t_exit = now + 10 * us;
    b.op = OP_BARRIER, b.root = -1, b.callsite = "app.c:5 (main) [app+0x100]";
    per[std::size_t(r)].push_back(b);
  }
  now += 10 * us;
  for (int k = 0; k < calls; k++) {
    double last = 0;
    for (int r : members) last = std::max(last, now + 100 * us + extra(r));
    for (int r : members) {
      CollEvent e{};
      e.rank = r, e.comm_id = comm, e.seq = uint64_t(k + 1), e.bytes = 32768;
      e.t_entry = now + 100 * us + extra(r);
      e.t_exit = last + 20 * us;
      e.op = op, e.root = root, e.callsite = site;
      per[std::size_t(r)].push_back(e);
    }
    now = last + 20 * us;
  }
  for (auto &v : per)
    for (auto &e : v) t.colls.push_back(e);
}

void sort_events(Trace &t) {
  std::stable_sort(t.colls.begin(), t.colls.end(), [](const CollEvent &a, const CollEvent &b) {
    return a.rank != b.rank ? a.rank < b.rank : a.t_entry < b.t_entry;
  });
}

}  // namespace

TEST(LateSets, TheRankThatComputesLongerIsLateAtItsRootsCallSite) {
  Trace t = ranks(8);
  loop(t, OP_BCAST, 0, 0, 20, [](int r) { return r == 5 ? 1 * ms : 0; }, "app.c:10 (main) [app+0x1234]");
  sort_events(t);
  auto sets = late_sets(t, 50 * us);
  ASSERT_EQ(sets.size(), 1u);
  const LateSet &s = sets[0];
  EXPECT_EQ(s.collective, "bcast");
  EXPECT_EQ(s.P, 8);
  EXPECT_EQ(s.root, 0);
  EXPECT_EQ(s.callsite, "app.c:10 (main) [app+0x1234]");
  EXPECT_EQ(s.calls, 20u);
  ASSERT_EQ(s.late.size(), 1u);
  EXPECT_EQ(s.late[0].rank, 5);
  EXPECT_NEAR(s.late[0].own, 1 * ms, 1 * us);
  EXPECT_TRUE(late_sets(t, 2 * ms).empty()) << "below the threshold: nobody";
}

TEST(LateSets, ManyRanksLateAlikeAreNoiseNotLateRanks) {
  // ranks 1..20 200 us late, rank 47 1 ms: with a list of 4 the 5th largest
  // median (200 us) is the noise, and only rank 47 exceeds twice it; with
  // the default list (32) all 21 are listed, latest first
  Trace t = ranks(48);
  loop(t, OP_REDUCE, 0, 0, 10, [](int r) { return r == 47 ? 1 * ms : r >= 1 && r <= 20 ? 200 * us : 0; },
       "app+0x40");
  sort_events(t);
  auto few = late_sets(t, 50 * us, 4);
  ASSERT_EQ(few.size(), 1u);
  EXPECT_NEAR(few[0].noise, 200 * us, 1 * us);
  ASSERT_EQ(few[0].late.size(), 1u);
  EXPECT_EQ(few[0].late[0].rank, 47);
  auto all = late_sets(t, 50 * us);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].noise, 0.0);
  ASSERT_EQ(all[0].late.size(), 21u);
  EXPECT_EQ(all[0].late[0].rank, 47);
  EXPECT_EQ(all[0].late[1].rank, 1) << "ties: smaller rank first";
}

TEST(LateSets, RanksAreTheCommunicatorsAndFirstCallsAreLeftOut) {
  Trace t = ranks(6, true);  // communicator 7: world ranks 1..5
  loop(t, OP_GATHER, 7, 2, 12, [](int r) { return r == 4 ? 500 * us : 0; }, "lib.so+0x99 (f+0x9)");
  sort_events(t);
  auto sets = late_sets(t, 50 * us);
  ASSERT_EQ(sets.size(), 1u);
  EXPECT_EQ(sets[0].collective, "gather");
  EXPECT_EQ(sets[0].P, 5);
  EXPECT_EQ(sets[0].comm_id, 7u);
  EXPECT_EQ(sets[0].root, 2);
  EXPECT_EQ(sets[0].callsite, "lib.so+0x99 (f+0x9)") << "the root's (world rank 3) call site";
  ASSERT_EQ(sets[0].late.size(), 1u);
  EXPECT_EQ(sets[0].late[0].rank, 3) << "world rank 4 is rank 3 of communicator 7";
  // without the barrier the first gather is every rank's first call: left out
  Trace u = ranks(6, true);
  loop(u, OP_GATHER, 7, 2, 12, [](int r) { return r == 4 ? 500 * us : 0; }, "lib.so+0x99 (f+0x9)");
  u.colls.erase(std::remove_if(u.colls.begin(), u.colls.end(), [](const CollEvent &e) { return e.op == OP_BARRIER; }),
                u.colls.end());
  sort_events(u);
  auto v = late_sets(u, 50 * us);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].calls, 11u);
}

TEST(LateSets, CallSiteNamesGiveModuleAndOffset) {
  std::string m;
  uint64_t off = 0;
  ASSERT_TRUE(callsite_module_offset("coll_loop.c:256 (main) [coll_loop_prof+0x2a29]", &m, &off));
  EXPECT_EQ(m, "coll_loop_prof");
  EXPECT_EQ(off, 0x2a29u);
  ASSERT_TRUE(callsite_module_offset("libfoo.so+0x10 (bar+0x4)", &m, &off));
  EXPECT_EQ(m, "libfoo.so");
  EXPECT_EQ(off, 0x10u);
  ASSERT_TRUE(callsite_module_offset("a.out+0xff", &m, &off));
  EXPECT_EQ(off, 0xffu);
  EXPECT_FALSE(callsite_module_offset("?+0x7f001234", &m, &off)) << "dladdr failed: not stable";
  EXPECT_FALSE(callsite_module_offset("main", &m, &off));
  EXPECT_FALSE(callsite_module_offset("x.c:1 (f) [mod+0xzz]", &m, &off));
}

// The key `arcoll tune` computes from a call-site name is libarcoll's key of
// the same return address (adapt/site.c).
TEST(LateSets, SiteHashOfModuleAndOffsetIsLibarcollsSiteKey) {
  const void *addr = reinterpret_cast<const void *>(&sort_events);
  Dl_info info;
  ASSERT_NE(dladdr(addr, &info), 0);
  const char *base = std::strrchr(info.dli_fname, '/');
  base = base ? base + 1 : info.dli_fname;
  const uint64_t off = uint64_t(reinterpret_cast<uintptr_t>(addr) - reinterpret_cast<uintptr_t>(info.dli_fbase));
  EXPECT_EQ(arcoll_site_hash(base, std::strlen(base), off), arcoll_site_key(addr));
}

// Module names of SMPI's per-rank copies, as the profiler names call sites
// and libarcoll keys them under SMPI (site_hash.h): the suffix goes, other
// names stay whole.
TEST(LateSets, SmpiCopySuffixIsLeftOutOfModuleNames) {
  EXPECT_EQ(arcoll_smpi_copy_name_length("app_123_4.so"), 3u);
  EXPECT_EQ(arcoll_smpi_copy_name_length("libx.so_1_2.so"), 7u);
  EXPECT_EQ(arcoll_smpi_copy_name_length("coll_loop_prof_6623_0.so"), 14u);
  for (const char *whole : {"app", "app.so", "app_12.so", "app__1.so", "_1.so", "libfoo_1_x.so", ".so"})
    EXPECT_EQ(arcoll_smpi_copy_name_length(whole), std::strlen(whole)) << whole;
}
