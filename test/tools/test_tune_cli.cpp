// `arcoll tune` end to end on a synthesized trace: the late rank of a
// broadcast loop written as the "lateness" key of a tuning file that
// libarcoll's reader (adapt/tuning.h) accepts, under the key libarcoll
// computes for that call site; an existing tuning file keeps its choices;
// bad inputs are exit 2 naming the problem.
#include <gtest/gtest.h>

#include <mpi.h>  // before the extern "C" block (mpicxx.h)

#include <nlohmann/json.hpp>
#include <string>

#include "cli_test_util.hpp"
#include "site_hash.h"
#include "synth_trace.hpp"

extern "C" {
#include "tuning.h"
}

namespace {

using clitest::slurp;
using clitest::spit;
using clitest::TempDirTest;

class Tune : public TempDirTest {
 protected:
  Tune() : TempDirTest("tune") {}
  void SetUp() override {
    // 8 ranks: a barrier, then 20 bcasts from root 0 (call site "app+0x20");
    // rank 3 computes 1 ms longer than the others (100 us) before each
    testtrace::Writer w(8);
    for (uint32_t r = 0; r < 8; r++) w.add_comm(r, 0, {0, 1, 2, 3, 4, 5, 6, 7});
    double now = 1.1;
    for (uint32_t r = 0; r < 8; r++) w.add_coll({r, OP_BARRIER, 0, 0, 0, 0, now, now + 1e-5});
    now += 1e-5;
    for (uint64_t k = 1; k <= 20; k++) {
      const double last = now + 1.1e-3;
      for (uint32_t r = 0; r < 8; r++) {
        testtrace::Coll c{r, OP_BCAST, 0, k, 32768, 0, now + (r == 3 ? 1.1e-3 : 1e-4), last + 2e-5};
        c.root = 0;
        c.callsite = 0x20;
        w.add_coll(c);
      }
      now = last + 2e-5;
    }
    w.write(dir + "/loop.arctrace");
  }
};

}  // namespace

TEST_F(Tune, LateRankOfABroadcastLoopIsWrittenForLibarcoll) {
  auto r = run("tune " + dir + "/loop.arctrace -o " + dir + "/t.json");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("bcast P=8 root 0"), std::string::npos) << r.out;
  arcoll_tuning_t t{};
  char err[1024] = "";
  ASSERT_EQ(arcoll_tuning_load((dir + "/t.json").c_str(), &t, err, sizeof err), 0) << err;
  ASSERT_EQ(t.nlate, 1);
  const arcoll_tuning_late_t &x = t.late[0];
  EXPECT_EQ(x.coll, ARCOLL_COLL_BCAST);
  EXPECT_EQ(x.P, 8);
  EXPECT_EQ(x.root, 0);
  ASSERT_EQ(x.n, 1);
  EXPECT_EQ(x.rank[0], 3);
  EXPECT_NEAR(x.caused[0], 1e-3, 1e-6);
  EXPECT_EQ(x.site, arcoll_site_hash("app", 3, 0x20)) << "the synthesized call site is \"app+0x20\"";
  arcoll_tuning_free(&t);
  // a call site with fewer calls than --min-calls has no late set
  r = run("tune " + dir + "/loop.arctrace -o " + dir + "/few.json --min-calls 21");
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(arcoll_tuning_load((dir + "/few.json").c_str(), &t, err, sizeof err), 0) << err;
  EXPECT_EQ(t.nlate, 0) << "20 calls < 21";
  arcoll_tuning_free(&t);
  // an earlier run's choices stay; the late sets are replaced
  auto doc = nlohmann::json::parse(slurp(dir + "/t.json"));
  doc["choices"] = nlohmann::json::array({{{"collective", "bcast"}, {"P", 8}, {"size_class", 61},
                                           {"algorithm", "binomial"}, {"source", "measured"}}});
  spit(dir + "/t.json", doc.dump());
  r = run("tune " + dir + "/loop.arctrace -o " + dir + "/t.json --min-late-us 2000");
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(arcoll_tuning_load((dir + "/t.json").c_str(), &t, err, sizeof err), 0) << err;
  EXPECT_EQ(t.n, 1) << "the choice kept";
  EXPECT_EQ(t.nlate, 0) << "nobody 2 ms late";
  arcoll_tuning_free(&t);
}

TEST_F(Tune, BadInputsAreExit2NamingTheProblem) {
  auto r = run("tune " + dir + "/missing.arctrace -o " + dir + "/t.json");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("missing.arctrace"), std::string::npos) << r.err;
  spit(dir + "/notes.json", "{\"hello\": 1}");
  r = run("tune " + dir + "/loop.arctrace -o " + dir + "/notes.json");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("not an arcoll tuning file"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(dir + "/notes.json"), "{\"hello\": 1}") << "left as it was";
  r = run("tune " + dir + "/loop.arctrace -o " + dir + "/no/such/dir/t.json");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("cannot write"), std::string::npos) << r.err;
  r = run("tune " + dir + "/loop.arctrace -o " + dir + "/t.json --min-late-us -1");
  EXPECT_EQ(r.rc, 2);
}
