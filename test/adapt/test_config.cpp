// Unit tests of libarcoll's environment configuration (adapt/config.h): the
// defaults, every documented error, the algorithm names per collective.
#include <gtest/gtest.h>

#include <mpi.h>  // before the extern "C" block (mpicxx.h)

#include <cstdlib>
#include <string>
#include <vector>

extern "C" {
#include "config.h"
}

namespace {

// An on/off variable: `off` gives 0, `on` 1, `bad` an error naming the variable and the value.
void expect_switch(const char *var, int arcoll_config_t::*field, const char *bad) {
  arcoll_config_t c;
  char err[512];
  setenv(var, "off", 1);
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), 0) << var;
  EXPECT_EQ(c.*field, 0) << var;
  setenv(var, "on", 1);
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), 0) << var;
  EXPECT_NE(c.*field, 0) << var;
  setenv(var, bad, 1);
  EXPECT_EQ(arcoll_config_parse(&c, err, sizeof err), -1) << var;
  EXPECT_NE(std::string(err).find(std::string(var) + "='" + bad + "' is not valid; use on"), std::string::npos)
      << err;
  unsetenv(var);
}

TEST(Config, DefaultsAndErrors) {
  arcoll_config_t c;
  char err[512];
  unsetenv("ARCOLL_BCAST_ALGORITHM");
  unsetenv("ARCOLL_BCAST_SEGMENT");
  unsetenv("ARCOLL_BCAST_EXCHANGE_INTERVAL");
  unsetenv("ARCOLL_BCAST_EWMA_ALPHA");
  unsetenv("ARCOLL_DEBUG");
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), 0);
  for (int k = 0; k < ARCOLL_COLL_COUNT; ++k) EXPECT_EQ(c.mode[k], ARCOLL_MODE_AUTO);
  EXPECT_EQ(c.segment_bytes, 65536);
  EXPECT_EQ(c.segment_set, 0);
  setenv("ARCOLL_BCAST_ALGORITHM", "binomial", 1);
  setenv("ARCOLL_BCAST_SEGMENT", "0", 1);
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), 0);
  EXPECT_EQ(c.mode[ARCOLL_COLL_BCAST], ARCOLL_MODE_FORCED);
  ASSERT_NE(c.forced[ARCOLL_COLL_BCAST], nullptr);
  EXPECT_STREQ(c.forced[ARCOLL_COLL_BCAST]->name, "binomial");
  EXPECT_EQ(c.segment_bytes, 0);
  EXPECT_EQ(c.segment_set, 1);
  setenv("ARCOLL_BCAST_ALGORITHM", "adaptive", 1);
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), 0);
  EXPECT_EQ(c.mode[ARCOLL_COLL_BCAST], ARCOLL_MODE_ADAPTIVE);
  setenv("ARCOLL_BCAST_ALGORITHM", "fast", 1);
  EXPECT_EQ(arcoll_config_parse(&c, err, sizeof err), -1);
  EXPECT_NE(std::string(err).find("ARCOLL_BCAST_ALGORITHM='fast'"), std::string::npos);
  EXPECT_NE(std::string(err).find("adaptive"), std::string::npos);
  setenv("ARCOLL_BCAST_ALGORITHM", "adaptive", 1);
  setenv("ARCOLL_BCAST_SEGMENT", "64k", 1);
  EXPECT_EQ(arcoll_config_parse(&c, err, sizeof err), -1);
  EXPECT_NE(std::string(err).find("ARCOLL_BCAST_SEGMENT"), std::string::npos);
  unsetenv("ARCOLL_BCAST_SEGMENT");
  EXPECT_EQ(c.exchange_interval, ARCOLL_LATE_MIN_INTERVAL);
  EXPECT_EQ(c.late_order, -1);  // unset: on for the adaptive bcast only
  for (const char *bad : {"0", "15", "65", "x"}) {  // 16..64
    setenv("ARCOLL_BCAST_EXCHANGE_INTERVAL", bad, 1);
    EXPECT_EQ(arcoll_config_parse(&c, err, sizeof err), -1) << bad;
    EXPECT_NE(std::string(err).find("ARCOLL_BCAST_EXCHANGE_INTERVAL"), std::string::npos);
  }
  setenv("ARCOLL_BCAST_EXCHANGE_INTERVAL", "32", 1);
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), 0);
  EXPECT_EQ(c.exchange_interval, 32);
  unsetenv("ARCOLL_BCAST_EXCHANGE_INTERVAL");
  EXPECT_EQ(c.late_detach, 0);  // off unless asked for
  EXPECT_EQ(c.late_chain, ARCOLL_LATE_CHAIN_RUNS);  // the chain of runs unless asked otherwise
  EXPECT_NE(c.reduce_detach, 0);  // on unless switched off
  expect_switch("ARCOLL_LATE_ORDER", &arcoll_config_t::late_order, "maybe");
  expect_switch("ARCOLL_LATE_DETACH", &arcoll_config_t::late_detach, "yes");
  expect_switch("ARCOLL_LATE_CHAIN", &arcoll_config_t::late_chain, "chain");
  setenv("ARCOLL_LATE_CHAIN", "on", 1);
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), 0);
  EXPECT_EQ(c.late_chain, ARCOLL_LATE_CHAIN_ON);
  setenv("ARCOLL_LATE_CHAIN", "runs", 1);
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), 0);
  EXPECT_EQ(c.late_chain, ARCOLL_LATE_CHAIN_RUNS);
  setenv("ARCOLL_LATE_CHAIN", "run", 1);
  EXPECT_EQ(arcoll_config_parse(&c, err, sizeof err), -1);
  EXPECT_NE(std::string(err).find("or runs (default"), std::string::npos) << err;
  unsetenv("ARCOLL_LATE_CHAIN");
  expect_switch("ARCOLL_REDUCE_DETACH", &arcoll_config_t::reduce_detach, "sometimes");
  unsetenv("ARCOLL_BCAST_ALGORITHM");
}

TEST(Config, AlgorithmNamesPerCollective) {
  arcoll_config_t c;
  char err[1024];
  setenv("ARCOLL_REDUCE_ALGORITHM", "rsag", 1);
  setenv("ARCOLL_SCAN_ALGORITHM", "pmpi", 1);
  setenv("ARCOLL_BARRIER_ALGORITHM", "auto", 1);
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), 0) << err;
  EXPECT_EQ(c.mode[ARCOLL_COLL_REDUCE], ARCOLL_MODE_FORCED);
  EXPECT_STREQ(c.forced[ARCOLL_COLL_REDUCE]->name, "rsag");
  EXPECT_EQ(c.mode[ARCOLL_COLL_SCAN], ARCOLL_MODE_PMPI);
  EXPECT_EQ(c.mode[ARCOLL_COLL_BARRIER], ARCOLL_MODE_AUTO);
  // adaptive is a bcast-only mode; unknown names list every valid one
  setenv("ARCOLL_REDUCE_ALGORITHM", "adaptive", 1);
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), -1);
  std::string e(err);
  EXPECT_NE(e.find("ARCOLL_REDUCE_ALGORITHM='adaptive' is not valid"), std::string::npos) << e;
  for (const char *n : {"auto", "pmpi", "binomial", "rsag", "chain"})
    EXPECT_NE(e.find(n), std::string::npos) << n << " missing in: " << e;
  unsetenv("ARCOLL_REDUCE_ALGORITHM");
  unsetenv("ARCOLL_SCAN_ALGORITHM");
  unsetenv("ARCOLL_BARRIER_ALGORITHM");
  setenv("ARCOLL_MODEL", "/nonexistent/arcoll-model.json", 1);
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), -1);
  EXPECT_NE(std::string(err).find("/nonexistent/arcoll-model.json"), std::string::npos) << err;
  unsetenv("ARCOLL_MODEL");
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), 0);
}

}  // namespace
