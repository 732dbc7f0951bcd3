// Unit tests of adapt/tuning_io.cpp (tuning files, tuning.h): write, read
// back, lookup by key, the wire form, and the errors of bad files.
#include <gtest/gtest.h>

#include <mpi.h>  // before the extern "C" block (mpicxx.h)

#include <cstdio>
#include <fstream>
#include <string>

extern "C" {
#include "tuning.h"
}

namespace {

std::string tmp_path(const char *name) {
  return std::string(::testing::TempDir()) + "arcoll_tuning_" + name + ".json";
}

void write_file(const std::string &p, const std::string &text) {
  std::ofstream(p) << text;
}

arcoll_tuning_entry_t entry(arcoll_coll_t c, int P, int comm, int cls, const char *algo,
                            MPI_Aint seg, int k = 0) {
  arcoll_tuning_entry_t x{};
  x.coll = c;
  x.P = P;
  x.commutative = comm;
  x.size_class = cls;
  x.bytes = 1000;
  x.algo = arcoll_algorithm_find(c, algo);
  EXPECT_NE(x.algo, nullptr) << algo;
  x.segment_bytes = seg;
  x.k = k;
  x.source = "measured";
  return x;
}

// Loading `text` fails with a message containing every string of `want`.
void expect_load_error(const std::string &text, std::initializer_list<const char *> want) {
  const std::string p = tmp_path("bad");
  write_file(p, text);
  arcoll_tuning_t t{};
  char err[1024] = "";
  EXPECT_EQ(arcoll_tuning_load(p.c_str(), &t, err, sizeof err), -1) << text;
  EXPECT_EQ(t.n, 0);
  for (const char *w : want) EXPECT_NE(std::string(err).find(w), std::string::npos) << err;
  EXPECT_NE(std::string(err).find(p), std::string::npos) << "error names the file: " << err;
  std::remove(p.c_str());
}

}  // namespace

TEST(Tuning, SaveLoadRoundTripKeepsEveryField) {
  arcoll_tuning_t t{};
  arcoll_tuning_entry_t a = entry(ARCOLL_COLL_BCAST, 64, 1, 61, "binomial", 8192);
  arcoll_tuning_entry_t b = entry(ARCOLL_COLL_REDUCE, 64, 0, 40, "chain", 4096);
  arcoll_tuning_entry_t c = entry(ARCOLL_COLL_ALLREDUCE, 3, 1, 5, "ring", 0);
  b.source = "model";
  ASSERT_EQ(arcoll_tuning_add(&t, &a), 1);
  ASSERT_EQ(arcoll_tuning_add(&t, &b), 1);
  ASSERT_EQ(arcoll_tuning_add(&t, &c), 1);
  const std::string p = tmp_path("roundtrip");
  char err[512] = "";
  ASSERT_EQ(arcoll_tuning_save(p.c_str(), &t, err, sizeof err), 0) << err;
  arcoll_tuning_t u{};
  ASSERT_EQ(arcoll_tuning_load(p.c_str(), &u, err, sizeof err), 0) << err;
  ASSERT_EQ(u.n, 3);
  for (const auto *x : {&a, &b, &c}) {
    const arcoll_tuning_entry_t *y = arcoll_tuning_find(&u, x->coll, x->P, x->commutative,
                                                        x->size_class);
    ASSERT_NE(y, nullptr);
    EXPECT_EQ(y->algo, x->algo);
    EXPECT_EQ(y->segment_bytes, x->segment_bytes);
    EXPECT_EQ(y->k, x->k);
    EXPECT_EQ(y->bytes, x->bytes);
    EXPECT_STREQ(y->source, x->source);
  }
  // keys differ in each part: none of these is found
  EXPECT_EQ(arcoll_tuning_find(&u, ARCOLL_COLL_BCAST, 64, 1, 62), nullptr);
  EXPECT_EQ(arcoll_tuning_find(&u, ARCOLL_COLL_BCAST, 32, 1, 61), nullptr);
  EXPECT_EQ(arcoll_tuning_find(&u, ARCOLL_COLL_REDUCE, 64, 1, 40), nullptr);
  EXPECT_EQ(arcoll_tuning_find(&u, ARCOLL_COLL_SCAN, 64, 1, 61), nullptr);
  arcoll_tuning_free(&t);
  arcoll_tuning_free(&u);
  EXPECT_EQ(u.n, 0);
  std::remove(p.c_str());
}

TEST(Tuning, FirstChoiceOfAKeyWins) {
  arcoll_tuning_t t{};
  arcoll_tuning_entry_t a = entry(ARCOLL_COLL_BCAST, 8, 1, 30, "binomial", 0);
  arcoll_tuning_entry_t b = entry(ARCOLL_COLL_BCAST, 8, 1, 30, "chain", 1024);
  EXPECT_EQ(arcoll_tuning_add(&t, &a), 1);
  EXPECT_EQ(arcoll_tuning_add(&t, &b), 0);
  ASSERT_EQ(t.n, 1);
  EXPECT_STREQ(t.e[0].algo->name, "binomial");
  arcoll_tuning_free(&t);
}

TEST(Tuning, WireFormRoundTripAndUnknownNames) {
  arcoll_tuning_entry_t a = entry(ARCOLL_COLL_GATHER, 13, 1, 50, "binomial", 0, 3), b{};
  arcoll_tuning_wire_t w;
  arcoll_tuning_pack(&a, &w);
  ASSERT_EQ(arcoll_tuning_unpack(&w, &b), 0);
  EXPECT_EQ(b.coll, a.coll);
  EXPECT_EQ(b.P, 13);
  EXPECT_EQ(b.size_class, 50);
  EXPECT_EQ(b.k, 3);
  EXPECT_EQ(b.algo, a.algo);
  std::snprintf(w.algo, sizeof w.algo, "no_such_algorithm");
  EXPECT_EQ(arcoll_tuning_unpack(&w, &b), -1);
  w.coll = ARCOLL_COLL_COUNT;
  EXPECT_EQ(arcoll_tuning_unpack(&w, &b), -1);
}

TEST(Tuning, BadFilesAreRejectedNamingTheProblem) {
  arcoll_tuning_t t{};
  char err[512] = "";
  EXPECT_EQ(arcoll_tuning_load("/nonexistent/dir/t.json", &t, err, sizeof err), -1);
  EXPECT_NE(std::string(err).find("cannot open"), std::string::npos) << err;
  expect_load_error("{\"arcoll_tuning\": 1, \"choices\": [", {"not a JSON tuning file"});
  expect_load_error("{\"version\": 1}", {"not an arcoll tuning file"});
  expect_load_error("{\"arcoll_tuning\": 2, \"choices\": []}", {"version 2 is not supported"});
  expect_load_error("{\"arcoll_tuning\": 1}", {"\"choices\""});
  const std::string head = "{\"arcoll_tuning\": 1, \"choices\": [";
  expect_load_error(head + "{\"collective\": \"bcats\", \"P\": 4, \"size_class\": 3, "
                           "\"algorithm\": \"binomial\"}]}",
                    {"choices[0]", "unknown collective \"bcats\"", "bcast"});
  expect_load_error(head + "{\"collective\": \"bcast\", \"P\": 1, \"size_class\": 3, "
                           "\"algorithm\": \"binomial\"}]}",
                    {"\"P\" = 1 is out of range"});
  expect_load_error(head + "{\"collective\": \"bcast\", \"P\": 4, \"size_class\": 999, "
                           "\"algorithm\": \"binomial\"}]}",
                    {"\"size_class\" = 999"});
  expect_load_error(head + "{\"collective\": \"bcast\", \"P\": 4, \"size_class\": 3, "
                           "\"algorithm\": \"quantum\"}]}",
                    {"bcast has no algorithm \"quantum\"", "binomial"});
  expect_load_error(head + "{\"collective\": \"bcast\", \"P\": 4, \"size_class\": 3, "
                           "\"algorithm\": \"binomial\", \"segment_bytes\": -5}]}",
                    {"\"segment_bytes\" = -5"});
  expect_load_error(head + "{\"collective\": \"reduce\", \"P\": 4, \"commutative\": false, "
                           "\"size_class\": 3, \"algorithm\": \"rsag\"}]}",
                    {"needs a commutative op"});
  const std::string one = "{\"collective\": \"bcast\", \"P\": 4, \"size_class\": 3, "
                          "\"algorithm\": \"binomial\"}";
  expect_load_error(head + one + ", " + one + "]}", {"choices[1]", "a second choice"});
}

TEST(Tuning, SaveToAMissingDirectoryFails) {
  arcoll_tuning_t t{};
  char err[512] = "";
  EXPECT_EQ(arcoll_tuning_save("/nonexistent/dir/t.json", &t, err, sizeof err), -1);
  EXPECT_NE(std::string(err).find("/nonexistent/dir/t.json"), std::string::npos) << err;
}
