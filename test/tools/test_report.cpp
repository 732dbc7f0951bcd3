// `arcoll report` end to end on a synthesized trace whose every number is
// known: the data written with --json and the one embedded in the page are
// parsed back and checked against the trace (call sites, waits, caused
// waits, skew cells, matrix, CCS steps), the placement section against
// `arcoll place --evaluate`, the --tuning table, escaping, and the errors.
// The page's rendering in a browser: report_render.sh (ctest report_render_*).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_test_util.hpp"
#include "synth_trace.hpp"

namespace {

using clitest::Result;
using clitest::slurp;
using clitest::spit;
using clitest::TempDirTest;

using nlohmann::json;

/** The JSON of <script type="application/json" id="arcoll-report-data"> in `page`. */
json embedded_data(const std::string &page) {
  const std::string open = "<script type=\"application/json\" id=\"arcoll-report-data\">";
  size_t a = page.find(open);
  EXPECT_NE(a, std::string::npos);
  if (a == std::string::npos) return json();
  a += open.size();
  size_t b = page.find("</script>", a);
  EXPECT_NE(b, std::string::npos);
  return json::parse(page.substr(a, b - a));
}

class Report : public TempDirTest {
 protected:
  Report() : TempDirTest("report") {}
  void SetUp() override {
    // 3 ranks. bcast at app+0x10, seq 0..3: rank 1 enters 0.1 s after rank 0,
    // rank 2 0.02 s after; all leave at +0.15. allreduce at app+0x20, seq
    // 4..5: ranks 1 and 2 enter 0.01 and 0.05 s late, leave at +0.06. A
    // barrier at app+0x30 (seq 6) on rank 0 only. Rank 2 reaches the
    // allreduces from another code path (app+0x28).
    testtrace::Writer w(3);
    const double bl[3] = {0, 0.1, 0.02}, al[3] = {0, 0.01, 0.05};
    for (uint32_t r = 0; r < 3; ++r) {
      for (uint64_t k = 0; k < 4; ++k)
        w.add_coll({r, OP_BCAST, 0, k, 1024, 0, 10.0 + k + bl[r], 10.0 + k + 0.15, 0, 0, 0x10});
      for (uint64_t k = 4; k < 6; ++k)
        w.add_coll({r, OP_ALLREDUCE, 0, k, 64, 0, 20.0 + k + al[r], 20.0 + k + 0.06, ARCOLL_ROOT_NONE, 0,
                    r == 2 ? 0x28u : 0x20u});
    }
    w.add_coll({0, OP_BARRIER, 0, 6, 0, 0, 30.0, 30.5, ARCOLL_ROOT_NONE, 0, 0x30});
    w.add({0, 0, 1, 100, 1});
    w.add({0, 1, 2, 200, 1});
    w.add({3, 2, 0, 50, 2});
    w.add({3, 0, 1, 10, 1});
    w.write(dir + "/t.arctrace");
    examples = ARCOLL_EXAMPLES;
  }
  std::string place_files() {
    return " --topology '" + examples + "/topology.conf' --hosts '" + examples + "/hosts.txt'";
  }
  std::string examples;
};

TEST_F(Report, DataMatchesTheTrace) {
  Result r = run("report '" + dir + "/t.arctrace' -o '" + dir + "/r.html' --json '" + dir + "/r.json'");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find(dir + "/r.html"), std::string::npos) << r.out;
  json d = json::parse(slurp(dir + "/r.json"));
  const std::string page = slurp(dir + "/r.html");
  EXPECT_EQ(embedded_data(page), d) << "the page must embed exactly the data written with --json";

  const json &t = d["trace"];
  EXPECT_EQ(t["ranks"], 3);
  EXPECT_EQ(t["collective_calls"], 19);
  EXPECT_EQ(t["collective_instances"], 7);
  EXPECT_EQ(t["collective_bytes"], 12 * 1024 + 6 * 64);
  EXPECT_EQ(t["p2p_messages"], 5);
  EXPECT_EQ(t["p2p_bytes"], 360);
  EXPECT_EQ(t["steps"], 2);
  EXPECT_EQ(t["hosts"], json({"node1", "node2", "node3"}));

  // Call sites, most time in call first; each event counts for its own site.
  const json &cs = d["callsites"];
  ASSERT_EQ(cs.size(), 4u);
  EXPECT_EQ(cs[0]["label"], "bcast at app+0x10");
  EXPECT_EQ(cs[0]["instances"], 4);
  EXPECT_EQ(cs[0]["events"], 12);
  EXPECT_NEAR(cs[0]["time_in_call_s"].get<double>(), 4 * (0.15 + 0.05 + 0.13), 1e-9);
  EXPECT_NEAR(cs[0]["arrival_wait_s"].get<double>(), 4 * (0.1 + 0.08), 1e-9);
  EXPECT_NEAR(cs[0]["max_skew_s"].get<double>(), 0.1, 1e-9);
  EXPECT_EQ(cs[1]["label"], "barrier at app+0x30");  // 0.5 s on one rank
  EXPECT_NEAR(cs[1]["time_in_call_s"].get<double>(), 0.5, 1e-9);
  EXPECT_EQ(cs[2]["label"], "allreduce at app+0x20");  // ranks 0 and 1
  EXPECT_EQ(cs[2]["events"], 4);
  EXPECT_EQ(cs[2]["instances"], 2);
  EXPECT_NEAR(cs[2]["time_in_call_s"].get<double>(), 2 * (0.06 + 0.05), 1e-9);
  EXPECT_NEAR(cs[2]["arrival_wait_s"].get<double>(), 2 * (0.05 + 0.04), 1e-9);
  EXPECT_EQ(cs[3]["label"], "allreduce at app+0x28");  // rank 2, the last to enter
  EXPECT_EQ(cs[3]["events"], 2);
  EXPECT_EQ(cs[3]["instances"], 2);
  EXPECT_NEAR(cs[3]["time_in_call_s"].get<double>(), 2 * 0.01, 1e-9);
  EXPECT_NEAR(cs[3]["arrival_wait_s"].get<double>(), 0.0, 1e-12);
  EXPECT_NEAR(cs[3]["max_skew_s"].get<double>(), 0.05, 1e-9);
  EXPECT_EQ(d["top"], 4);
  EXPECT_NE(page.find("<td class=\"l\">bcast at app+0x10</td>"), std::string::npos);

  // Caused waits (profiler/cause_analysis.hpp), the first bcast (everybody's
  // first collective) left out. Bcasts 1..3: gaps 0.85 + (0, 0.1, 0.02),
  // median 0.87, rank 1's own delay 0.08 = [0.02, 0.1) after rank 0's entry,
  // while ranks 0 and 2 wait: 2 x 0.08 per call. Allreduces: gaps (10.85 or
  // 0.94) + (0, 0.01, 0.05), rank 2's own delay 0.04 = [0.01, 0.05) while
  // ranks 0 and 1 wait: 2 x 0.04 per call. The one-rank barrier counts for nobody.
  const json &w = d["wait_cause"];
  EXPECT_EQ(w["instances"], 5);
  EXPECT_EQ(w["first_calls"], 1);
  ASSERT_EQ(w["ranks"].size(), 3u);
  EXPECT_NEAR(w["ranks"][0]["caused_s"].get<double>(), 0.0, 1e-12);
  EXPECT_NEAR(w["ranks"][1]["caused_s"].get<double>(), 3 * 2 * 0.08, 1e-9);
  EXPECT_NEAR(w["ranks"][2]["caused_s"].get<double>(), 2 * 2 * 0.04, 1e-9);
  EXPECT_EQ(w["ranks"][1]["cause_calls"], 3);
  EXPECT_EQ(w["ranks"][2]["cause_calls"], 2);
  // every bcast waits 0.1 (rank 0) + 0.08 (rank 2); every allreduce 0.05 + 0.04
  EXPECT_NEAR(w["total_wait_s"].get<double>(), 3 * 0.18 + 2 * 0.09, 1e-9);
  // the long-term figure holds the short-term one, the propagated part at most the rest
  double long_term = 0;
  for (int r = 0; r < 3; ++r) {
    EXPECT_GE(w["ranks"][r]["caused_long_term_s"].get<double>(), w["ranks"][r]["caused_s"].get<double>() - 1e-12);
    long_term += w["ranks"][r]["caused_long_term_s"].get<double>();
  }
  EXPECT_NEAR(long_term, w["caused_wait_s"].get<double>() + w["propagated_wait_s"].get<double>(), 1e-9);
  EXPECT_LE(w["propagated_wait_s"].get<double>(), w["total_wait_s"].get<double>() - w["caused_wait_s"].get<double>() + 1e-9);

  // Skew heatmap: per site its calls, every rank of each; values relative to the first entry.
  const json &sk = d["skew"];
  ASSERT_EQ(sk["sites"].size(), 4u);
  EXPECT_EQ(sk["cells"].size(), 12u + 1u + 6u + 6u);
  std::map<int, int> per_site;
  for (const json &c : sk["cells"]) {
    per_site[c["s"]]++;
    if (c["s"] == 0 && c["r"] == 1) EXPECT_NEAR(c["v"].get<double>(), 0.1, 1e-9);
    if (c["s"] >= 2 && c["r"] == 2) EXPECT_NEAR(c["v"].get<double>(), 0.05, 1e-9);
    if (c["r"] == 0) EXPECT_EQ(c["v"], 0.0);
  }
  EXPECT_EQ(per_site[0], 12);
  EXPECT_EQ(per_site[1], 1);
  EXPECT_EQ(per_site[2], 6);
  EXPECT_EQ(per_site[3], 6);
  EXPECT_EQ(sk["sites"][3]["shown"], 2);

  // Matrix over all steps and the CCS per step.
  std::map<std::pair<int, int>, std::pair<uint64_t, uint64_t>> m;
  for (const json &c : d["matrix"]["cells"]) m[{c["src"], c["dst"]}] = {c["bytes"], c["count"]};
  EXPECT_EQ(m.size(), 3u);
  EXPECT_EQ(m[std::make_pair(0, 1)], std::make_pair(uint64_t(110), uint64_t(2)));
  EXPECT_EQ(m[std::make_pair(1, 2)], std::make_pair(uint64_t(200), uint64_t(1)));
  EXPECT_EQ(m[std::make_pair(2, 0)], std::make_pair(uint64_t(50), uint64_t(2)));
  const json &ccs = d["ccs"];
  EXPECT_EQ(ccs["steps_total"], 2);
  ASSERT_EQ(ccs["steps"].size(), 2u);
  EXPECT_EQ(ccs["steps"][0]["step"], 0);
  EXPECT_EQ(ccs["steps"][0]["bytes"], 300);
  EXPECT_EQ(ccs["steps"][1]["step"], 3);
  EXPECT_EQ(ccs["steps"][1]["messages"], 3);
  EXPECT_EQ(ccs["cells"].size(), 4u);

  // No algorithm choices in a trace; no placement without the files.
  EXPECT_EQ(d["algorithms"]["source"], "none");
  EXPECT_NE(page.find("this trace came from a plain profiler run"), std::string::npos);
  EXPECT_TRUE(d["placement"].is_null());

  // The page is self-contained: Vega inlined, nothing fetched.
  EXPECT_NE(page.find("defs['vega-view']"), std::string::npos);
  EXPECT_EQ(page.find("<script src"), std::string::npos);
  EXPECT_EQ(page.find("sourceMappingURL"), std::string::npos);
  for (const char *id : {"plot-waits", "plot-skew", "plot-matrix", "plot-steps"})
    EXPECT_NE(page.find(std::string("id=\"") + id + "\""), std::string::npos) << id;
}

TEST_F(Report, BigTracesAreCutAndSaySo) {
  // 200 ranks x 150 bcasts: the heatmap keeps 20000 cells per site (100
  // calls); 1200 steps of 2 messages: the first 1000 are selectable.
  testtrace::Writer w(200);
  for (uint32_t r = 0; r < 200; ++r)
    for (uint64_t k = 0; k < 150; ++k)
      w.add_coll({r, OP_BCAST, 0, k, 8, 0, 10.0 + k + 1e-4 * r, 10.0 + k + 0.05, 0, 0, 0x10});
  for (uint64_t st = 0; st < 1200; ++st) {
    w.add({st, 0, 1, 10, 1});
    w.add({st, 1, 0, 10, 1});
  }
  w.write(dir + "/big.arctrace");
  Result r = run("report '" + dir + "/big.arctrace' -o '" + dir + "/r.html' --json '" + dir + "/r.json'");
  ASSERT_EQ(r.rc, 0) << r.err;
  json d = json::parse(slurp(dir + "/r.json"));
  EXPECT_EQ(d["trace"]["collective_calls"], 200 * 150);
  EXPECT_EQ(d["skew"]["max_calls"], 100);
  EXPECT_EQ(d["skew"]["sites"][0]["instances"], 150);
  EXPECT_EQ(d["skew"]["sites"][0]["shown"], 100);
  EXPECT_EQ(d["skew"]["cells"].size(), 100u * 200u);
  EXPECT_EQ(d["ccs"]["steps_total"], 1200);
  EXPECT_EQ(d["ccs"]["steps"].size(), 1000u);
  EXPECT_EQ(d["ccs"]["cells"].size(), 2000u);
  // rank 199 computes longest: it causes the most waiting in every call but the first
  EXPECT_EQ(d["wait_cause"]["ranks"][199]["cause_calls"], 149);
  EXPECT_NE(slurp(dir + "/r.html").find("1000 of 1200 steps selectable"), std::string::npos);
}

TEST_F(Report, PlacementLinkLoadsAgreeWithPlace) {
  // rank 0 -> node04, 1 -> node02, 2 -> node01 (Hydra machinefile).
  spit(dir + "/map.txt", "node04:1\nnode02:1\nnode01:1\n");
  Result r = run("report '" + dir + "/t.arctrace' -o '" + dir + "/r.html' --json '" + dir + "/r.json' --mapping '" +
                 dir + "/map.txt'" + place_files());
  ASSERT_EQ(r.rc, 0) << r.err;
  json p = json::parse(slurp(dir + "/r.json"))["placement"];
  ASSERT_TRUE(p.is_object());
  EXPECT_EQ(p["steps"], 2);
  EXPECT_EQ(p["messages"], 4);
  // In order: 0->1 inside leaf1 (2 links), 1->2 and 2->0 across top (4 links).
  EXPECT_EQ(p["before"]["hop_bytes"].get<double>(), 110 * 2 + 200 * 4 + 50 * 4);
  // After: 0->1 node04->node02 (4), 1->2 node02->node01 (2), 2->0 node01->node04 (4).
  EXPECT_EQ(p["after"]["hop_bytes"].get<double>(), 110 * 4 + 200 * 2 + 50 * 4);
  // Per-link loads add up to the hop-bytes (every network link of a route carries the message).
  for (const char *k : {"before", "after"}) {
    double sum = 0, maxb = 0;
    for (const json &l : p["links"]) {
      EXPECT_NE(l["kind"], "intra");
      sum += l[std::string(k) + "_bytes"].get<double>();
      maxb = std::max(maxb, l[std::string(k) + "_bytes"].get<double>());
    }
    EXPECT_EQ(sum, p[k]["hop_bytes"].get<double>()) << k;
    EXPECT_EQ(maxb, p[k]["max_link_bytes"].get<double>()) << k;
  }
  // The same estimated times as `arcoll place`.
  Result e = run("place '" + dir + "/t.arctrace'" + place_files() + " --evaluate '" + dir + "/map.txt' --json");
  ASSERT_EQ(e.rc, 0) << e.err;
  EXPECT_DOUBLE_EQ(p["after"]["time_s"].get<double>(), json::parse(e.out)["evaluate"]["time_s"].get<double>());
  Result s = run("place '" + dir + "/t.arctrace'" + place_files() + " --strategy identity --json -o '" + dir +
                 "/id.txt'");
  ASSERT_EQ(s.rc, 0) << s.err;
  EXPECT_DOUBLE_EQ(p["before"]["time_s"].get<double>(), json::parse(s.out)["stages"][0]["time_s"].get<double>());
  const std::string page = slurp(dir + "/r.html");
  EXPECT_NE(page.find("id=\"plot-links\""), std::string::npos);
  EXPECT_NE(page.find("<table id=\"placement\">"), std::string::npos);
}

TEST_F(Report, TuningFileGivesTheAlgorithmTable) {
  spit(dir + "/tuning.json",
       R"({"arcoll_tuning": 1, "choices": [
         {"collective": "gather", "P": 3, "bytes": 64, "size_class": 25, "algorithm": "binomial"},
         {"collective": "bcast", "P": 3, "commutative": true, "size_class": 41, "bytes": 1024,
          "algorithm": "knomial", "segment_bytes": 0, "k": 4, "source": "measured"},
         {"collective": "allreduce", "P": 3, "bytes": 64, "algorithm": "ring", "source": "model"}]})");
  Result r = run("report '" + dir + "/t.arctrace' -o '" + dir + "/r.html' --json '" + dir + "/r.json' --tuning '" +
                 dir + "/tuning.json'");
  ASSERT_EQ(r.rc, 0) << r.err;
  json a = json::parse(slurp(dir + "/r.json"))["algorithms"];
  EXPECT_EQ(a["source"], "tuning");
  ASSERT_EQ(a["choices"].size(), 3u);
  EXPECT_EQ(a["choices"][0]["collective"], "allreduce");  // sorted by collective
  EXPECT_EQ(a["choices"][1]["algorithm"], "knomial");
  EXPECT_EQ(a["choices"][1]["k"], 4);
  EXPECT_EQ(a["choices"][0]["in_trace"], true);
  EXPECT_EQ(a["choices"][1]["in_trace"], true);
  EXPECT_EQ(a["choices"][2]["in_trace"], false);  // no gather in the trace
  EXPECT_NE(slurp(dir + "/r.html").find("<td>knomial</td>"), std::string::npos);

  spit(dir + "/bad.json", R"({"arcoll_tuning": 1, "choices": [{"collective": "bcast", "P": 3, "algorithm": "x"},
                              {"collective": "bcast"}]})");
  r = run("report '" + dir + "/t.arctrace' -o '" + dir + "/r2.html' --tuning '" + dir + "/bad.json'");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find(dir + "/bad.json: choices[1]"), std::string::npos) << r.err;
  EXPECT_FALSE(std::ifstream(dir + "/r2.html").good()) << "no page after an error";
}

TEST_F(Report, MarkupInNamesIsEscaped) {
  // A directory "a<" makes the path hold "a</script>" (a '/' cannot be in a file name).
  ASSERT_EQ(mkdir((dir + "/a<").c_str(), 0700), 0);
  const std::string odd = dir + "/a</script><b>&x.arctrace";
  ASSERT_EQ(std::rename((dir + "/t.arctrace").c_str(), odd.c_str()), 0);
  Result r = run("report '" + odd + "' -o '" + dir + "/r.html'");
  ASSERT_EQ(r.rc, 0) << r.err;
  const std::string page = slurp(dir + "/r.html");
  EXPECT_EQ(page.find("a</script><b>"), std::string::npos);
  EXPECT_NE(page.find("a&lt;/script&gt;&lt;b&gt;&amp;x.arctrace"), std::string::npos);
  EXPECT_EQ(embedded_data(page)["trace"]["path"], odd);
}

TEST_F(Report, ErrorsAreExit2AndNameTheFile) {
  Result r = run("report '" + dir + "/missing.arctrace' -o '" + dir + "/r.html'");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find(dir + "/missing.arctrace"), std::string::npos) << r.err;

  std::string b = slurp(dir + "/t.arctrace");
  spit(dir + "/cut.arctrace", b.substr(0, b.size() - 20));
  r = run("report '" + dir + "/cut.arctrace' -o '" + dir + "/r.html'");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find(dir + "/cut.arctrace"), std::string::npos) << r.err;

  r = run("report '" + dir + "/t.arctrace' -o '" + dir + "/r.html'", "ARCOLL_VEGA_DIR='" + dir + "/novega'");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find(dir + "/novega/vega-util.min.js"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("libjs-vega"), std::string::npos) << r.err;

  r = run("report '" + dir + "/t.arctrace' -o '" + dir + "/r.html' --mapping '" + dir + "/map.txt'");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("go together"), std::string::npos) << r.err;

  r = run("report '" + dir + "/t.arctrace' -o '" + dir + "/nodir/r.html'");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find(dir + "/nodir/r.html"), std::string::npos) << r.err;

  spit(dir + "/map.txt", "node09:3\n");
  r = run("report '" + dir + "/t.arctrace' -o '" + dir + "/r.html' --mapping '" + dir + "/map.txt'" + place_files());
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find(dir + "/map.txt"), std::string::npos) << r.err;
  EXPECT_FALSE(std::ifstream(dir + "/r.html").good()) << "no page after an error";
}

}  // namespace
