// `arcoll export TRACE --otf2 DIR` end to end: the archive read back with
// otf2-print, its events counted per location and compared with what the
// trace reader finds in the trace; values (ops, roots, sizes, clock-corrected
// timestamps) checked on a synthesized trace; error exits.
// With ARCOLL_OTF2_TRACE set (test otf2_export_recorded), the same count
// checks run on a trace recorded by the profiler under MPICH.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_util.hpp"
#include "synth_trace.hpp"
#include "trace_reader.hpp"

namespace {

using clitest::Result;
using clitest::sh;
using clitest::slurp;
using clitest::TempDirTest;

struct Event {
  std::string name;  // ENTER, LEAVE, MPI_COLLECTIVE_BEGIN, ..., MPI_SEND, MPI_RECV
  uint64_t tick;
  std::string rest;  // otf2-print's attributes column (+ ADDITIONAL ATTRIBUTES line)
};
using Events = std::map<int, std::vector<Event>>;  // location -> events in file order

/** otf2-print's event lines ("NAME  LOCATION  TIMESTAMP  ATTRIBUTES"). */
Events parse_otf2_print(const std::string &text) {
  Events ev;
  std::istringstream in(text);
  std::string line;
  const std::regex re(R"(^([A-Z_]+)\s+(\d+)\s+(\d+)\s*(.*)$)");
  Event *last = nullptr;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, re)) {
      auto &v = ev[std::stoi(m[2])];
      v.push_back(Event{m[1], std::stoull(m[3]), m[4]});
      last = &v.back();
    } else if (last && line.find("ADDITIONAL ATTRIBUTES") != std::string::npos) {
      last->rest += " " + line;
    }
  }
  return ev;
}

size_t count(const std::vector<Event> &v, const std::string &name) {
  size_t n = 0;
  for (auto &e : v) n += e.name == name;
  return n;
}

class ExportOtf2 : public TempDirTest {
 protected:
  ExportOtf2() : TempDirTest("otf2") {}

  /** Exports `trace`, reads it back, checks the counts per location against
   *  the reader and the time order; returns the events. */
  Events export_and_check(const std::string &trace, const std::string &out) {
    Result r = run("export '" + trace + "' --otf2 '" + out + "'");
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_NE(r.out.find("wrote " + out + "/traces.otf2"), std::string::npos) << r.out;
    EXPECT_EQ(access((out + "/traces.otf2").c_str(), R_OK), 0);
    Result p = sh(std::string("'") + OTF2_PRINT + "' '" + out + "/traces.otf2'", dir);
    EXPECT_EQ(p.rc, 0) << p.err;
    EXPECT_EQ(p.err, "");  // otf2-print warns about malformed definitions
    Events ev = parse_otf2_print(p.out);

    arcoll::trace::Trace t = arcoll::trace::Trace::read(trace);
    size_t total = 0;
    for (int r = 0; r < t.nranks; ++r) {
      size_t calls = 0, blocking = 0, sends = 0, recvs = 0;
      for (auto &c : t.colls)
        if (c.rank == r) ++calls, blocking += !(c.flags & ARCOLL_COLL_NONBLOCKING);
      for (auto &m : t.ccs) sends += m.src == r, recvs += m.dst == r;
      const auto &v = ev[r];
      EXPECT_EQ(count(v, "ENTER"), calls) << "rank " << r;
      EXPECT_EQ(count(v, "LEAVE"), calls) << "rank " << r;
      EXPECT_EQ(count(v, "MPI_COLLECTIVE_BEGIN"), blocking) << "rank " << r;
      EXPECT_EQ(count(v, "MPI_COLLECTIVE_END"), blocking) << "rank " << r;
      EXPECT_EQ(count(v, "MPI_SEND"), sends) << "rank " << r;
      EXPECT_EQ(count(v, "MPI_RECV"), recvs) << "rank " << r;
      EXPECT_EQ(v.size(), 2 * calls + 2 * blocking + sends + recvs) << "rank " << r << ": other events";
      for (size_t i = 1; i < v.size(); ++i)
        EXPECT_LE(v[i - 1].tick, v[i].tick) << "rank " << r << " event " << i << " goes back in time";
      // Enter/Leave pairs nest: no event of another call inside a call.
      int depth = 0;
      for (auto &e : v) {
        depth += e.name == "ENTER" ? 1 : e.name == "LEAVE" ? -1 : 0;
        EXPECT_TRUE(depth == 0 || depth == 1) << "rank " << r;
        if (e.name == "MPI_SEND" || e.name == "MPI_RECV") EXPECT_EQ(depth, 0) << "rank " << r << " p2p inside a call";
      }
      total += v.size();
    }
    EXPECT_EQ(ev.size(), static_cast<size_t>(t.nranks)) << "locations with events";
    EXPECT_GT(total, 0u);
    return ev;
  }
};

const Event *find(const std::vector<Event> &v, const std::string &name, const std::string &needle, size_t nth = 0) {
  for (auto &e : v)
    if (e.name == name && e.rest.find(needle) != std::string::npos && nth-- == 0) return &e;
  return nullptr;
}

// 4 ranks with clock offsets; global times (s): MPI_Init 1.0, MPI_Finalize 2.0.
//   step 0: ring r -> r+1 (1000 B, 2 messages); bcast (root 1) at 1.10 + 1 ms * r .. 1.12
//   steps 1, 2: r -> r^1 (500 B), r -> r^2 (300 B); allreduce (step 3) 1.30 .. 1.31
//   step 4: ranks 0, 2: ibcast and reduce (root comm rank 1 = world 2) on comm {0, 2};
//           ranks 1, 3: barrier on comm {1, 3}; 1.50 .. 1.52
//   step 5: 0 -> 3 (7 B), after the last call
void write_mixed(const std::string &path) {
  testtrace::Writer w(4);
  auto off = [](int r) { return 0.25 * r; };  // rank-0 clock minus rank clock
  auto local = [&](int r, double g) { return g - off(r); };
  for (uint32_t r = 0; r < 4; ++r) {
    arcoll_rec_clock c{};
    c.t_init = local(r, 1.0), c.off_init = off(r), c.t_fini = local(r, 2.0), c.off_fini = off(r);
    w.set_clock(r, c);
    int ir = static_cast<int>(r);
    w.add({0, ir, (ir + 1) % 4, 1000, 2});
    w.add({1, ir, ir ^ 1, 500});
    w.add({2, ir, ir ^ 2, 300});
    w.add_coll({r, OP_BCAST, 0, 0, 64, 0, local(r, 1.10 + 0.001 * r), local(r, 1.12), 1});
    w.add_coll({r, OP_ALLREDUCE, 0, 1, 16, 3, local(r, 1.30), local(r, 1.31)});
    uint64_t sub = r % 2 == 0 ? 1 : 2;
    w.add_comm(r, sub, r % 2 == 0 ? std::vector<int32_t>{0, 2} : std::vector<int32_t>{1, 3});
    if (r % 2 == 0) {
      w.add_coll({r, OP_BCAST, sub, 0, 32, 4, local(r, 1.40), local(r, 1.401), 0, ARCOLL_COLL_NONBLOCKING, 0x20});
      w.add_coll({r, OP_REDUCE, sub, 1, 8, 4, local(r, 1.50), local(r, 1.52), 1, 0, 0x30});
    } else {
      w.add_coll({r, OP_BARRIER, sub, 0, 0, 4, local(r, 1.50), local(r, 1.52), ARCOLL_ROOT_NONE, 0, 0x40});
    }
  }
  w.add({5, 0, 3, 7});
  w.write(path);
}

}  // namespace

TEST_F(ExportOtf2, SynthesizedTraceCountsValuesAndTimes) {
  write_mixed(dir + "/mixed.arctrace");
  Events ev = export_and_check(dir + "/mixed.arctrace", dir + "/out");
  // Clock-corrected times: t0 = MPI_Init (global 1.0) = the step-0 sends.
  for (int r = 0; r < 4; ++r) {
    const Event *e = find(ev[r], "ENTER", "\"MPI_Bcast\"");
    ASSERT_NE(e, nullptr) << r;
    EXPECT_NEAR(static_cast<double>(e->tick), 100e6 + 1e6 * r, 1.0) << "rank " << r;
    const Event *s = find(ev[r], "MPI_SEND", "Tag: 0,");
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->tick, 0u);
    EXPECT_NE(s->rest.find("Receiver: " + std::to_string((r + 1) % 4)), std::string::npos) << s->rest;
    EXPECT_NE(s->rest.find("Length: 1000"), std::string::npos) << s->rest;
    EXPECT_NE(s->rest.find("\"arcoll messages\" <2>; UINT32; 2"), std::string::npos) << s->rest;
    // the step-0 receive ends the step: just before this rank's bcast
    const Event *rv = find(ev[r], "MPI_RECV", "Tag: 0,");
    ASSERT_NE(rv, nullptr);
    EXPECT_EQ(rv->tick, e->tick);
    EXPECT_LT(rv - ev[r].data(), e - ev[r].data());
    // steps 1, 2, 3 split the gap 1.12 .. 1.30: step 2 from 1.18 to 1.24
    EXPECT_NEAR(static_cast<double>(find(ev[r], "MPI_SEND", "Tag: 2,")->tick), 180e6, 1.0);
    EXPECT_NEAR(static_cast<double>(find(ev[r], "MPI_RECV", "Tag: 1,")->tick), 180e6, 1.0);
  }
  // Bcast root 1: sent on rank 1, received elsewhere.
  const Event *b1 = find(ev[1], "MPI_COLLECTIVE_END", "BCAST");
  ASSERT_NE(b1, nullptr);
  EXPECT_NE(b1->rest.find("Communicator: \"MPI_COMM_WORLD\""), std::string::npos) << b1->rest;
  EXPECT_NE(b1->rest.find("Root: 1 "), std::string::npos) << b1->rest;
  EXPECT_NE(b1->rest.find("Sent: 64, Received: 0"), std::string::npos) << b1->rest;
  EXPECT_NE(find(ev[3], "MPI_COLLECTIVE_END", "Sent: 0, Received: 64"), nullptr);
  EXPECT_NE(find(ev[0], "MPI_COLLECTIVE_END", "ALLREDUCE"), nullptr);
  // Reduce on comm {0, 2}, root = comm rank 1 = world rank 2.
  const Event *r2 = find(ev[2], "MPI_COLLECTIVE_END", "Operation: REDUCE,");
  ASSERT_NE(r2, nullptr);
  EXPECT_NE(r2->rest.find("Communicator: \"comm 0x1"), std::string::npos) << r2->rest;
  EXPECT_NE(r2->rest.find("Sent: 8, Received: 8"), std::string::npos) << r2->rest;
  EXPECT_NE(find(ev[0], "MPI_COLLECTIVE_END", "Sent: 8, Received: 0"), nullptr);
  EXPECT_NE(find(ev[3], "MPI_COLLECTIVE_END", "BARRIER"), nullptr);
  // Nonblocking start: its region, no collective begin/end.
  EXPECT_NE(find(ev[0], "ENTER", "\"MPI_Ibcast\""), nullptr);
  EXPECT_NE(find(ev[0], "ENTER", "\"app+0x20\""), nullptr);  // call-site attribute
  EXPECT_EQ(find(ev[1], "ENTER", "\"MPI_Ibcast\""), nullptr);
  // Step 5 after the last call: rank 0's send after its reduce, rank 3's receive at MPI_Finalize.
  const Event *s5 = find(ev[0], "MPI_SEND", "Tag: 5,");
  ASSERT_NE(s5, nullptr);
  EXPECT_NEAR(static_cast<double>(s5->tick), 520e6, 1.0);
  EXPECT_NEAR(static_cast<double>(find(ev[3], "MPI_RECV", "Tag: 5,")->tick), 1000e6, 1.0);

  // Definitions: one location per rank, in a group under its host.
  Result g = sh(std::string("'") + OTF2_PRINT + "' -G '" + dir + "/out/traces.otf2'", dir);
  ASSERT_EQ(g.rc, 0) << g.err;
  for (int r = 0; r < 4; ++r) {
    EXPECT_TRUE(std::regex_search(g.out, std::regex("LOCATION +" + std::to_string(r) + " +Name: \"rank " +
                                                    std::to_string(r) + "\""))) << g.out;
    EXPECT_TRUE(std::regex_search(g.out, std::regex("LOCATION_GROUP +" + std::to_string(r) + " +Name: \"MPI Rank " +
                                                    std::to_string(r) + "\".*Parent: \"node::node" +
                                                    std::to_string(r + 1) + "\""))) << g.out;
  }
}

TEST_F(ExportOtf2, RecordedTrace) {
  const char *trace = std::getenv("ARCOLL_OTF2_TRACE");
  if (!trace) GTEST_SKIP() << "ARCOLL_OTF2_TRACE not set (ctest otf2_export_recorded sets it)";
  export_and_check(trace, dir + "/out");
}

TEST_F(ExportOtf2, CorruptTraceIsExit2NamingTheFile) {
  write_mixed(dir + "/mixed.arctrace");
  std::string b = slurp(dir + "/mixed.arctrace");
  std::ofstream(dir + "/cut.arctrace", std::ios::binary) << b.substr(0, b.size() - 20);
  std::ofstream(dir + "/garbage.arctrace") << "this is not a trace at all, just some text long enough for a header";
  for (std::string name : {"cut.arctrace", "garbage.arctrace", "missing.arctrace"}) {
    Result r = run("export '" + dir + "/" + name + "' --otf2 '" + dir + "/out'");
    EXPECT_EQ(r.rc, 2) << name;
    EXPECT_EQ(r.err.rfind("arcoll export: error: arcoll trace " + dir + "/" + name, 0), 0u) << r.err;
    EXPECT_NE(access((dir + "/out").c_str(), F_OK), 0) << "nothing written for " << name;
  }
}

TEST_F(ExportOtf2, UnwritableDirAndOtf2ErrorsNameTheDir) {
  write_mixed(dir + "/mixed.arctrace");
  const std::string t = "export '" + dir + "/mixed.arctrace' --otf2 ";
  std::ofstream(dir + "/file") << "x";
  for (std::string out : {dir + "/file", dir + "/file/sub"}) {
    Result r = run(t + "'" + out + "'");
    EXPECT_EQ(r.rc, 2) << out;
    EXPECT_NE(r.err.find(out + ": cannot create the output directory: Not a directory"), std::string::npos) << r.err;
  }
  // An archive already there is not overwritten.
  ASSERT_EQ(run(t + "'" + dir + "/out'").rc, 0);
  Result again = run(t + "'" + dir + "/out'");
  EXPECT_EQ(again.rc, 2);
  EXPECT_NE(again.err.find(dir + "/out: already holds an OTF2 archive 'traces'"), std::string::npos) << again.err;
  // OTF2 itself fails (file name too long): its message, no partial archive left.
  Result r = run(t + "'" + dir + "/long' --name " + std::string(300, 'x'));
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err.rfind("arcoll export: error: " + dir + "/long: OTF2 error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("too long"), std::string::npos) << r.err;
  EXPECT_NE(access((dir + "/long").c_str(), F_OK), 0);
  Result bad = run(t + "'" + dir + "/x' --name a/b");
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("must be a non-empty file name without '/'"), std::string::npos) << bad.err;
}
