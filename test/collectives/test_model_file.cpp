// Unit tests of the model file (collectives/model_io.cpp): the writer's round trip,
// bad files named with their field, and, when ARCOLL_CALIBRATED_MODEL names a
// file written by arcoll-calibrate (ctest collectives.calibrate.np2), that file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model_fixtures.hpp"
#include "select.h"

namespace {

std::string tmp_path(const std::string &name) {
  const char *d = std::getenv("TMPDIR");
  return std::string(d ? d : "/tmp") + "/arcoll_test_select_" + std::to_string(getpid()) + "_" + name;
}

void write_file(const std::string &path, const std::string &text) {
  std::ofstream f(path);
  f << text;
}

TEST(ModelFile, RoundTripThroughTheWriter) {
  arcoll_model_t m = curve_model();
  m.intra = {1.25e-7, 7.5e9, 3.3e-8, 1.1e-8, 2.2e-8, 1.0 / 3.3e9};
  m.inter = {4.155e-6, 1.0607e9, 4.03e-6, 1e-8, 8.78e-8, 8.5044e-10};
  m.gamma = 0;  // allowed: SMPI without simulated computation
  m.intra_curve.n = 2;
  m.intra_curve.bytes[0] = 0;
  m.intra_curve.seconds[0] = 1.5e-7;
  m.intra_curve.bytes[1] = 4096;
  m.intra_curve.seconds[1] = 9.75e-7;
  m.inter_gap_curve.n = 3;
  const double gb[] = {0, 1024, 8192}, gs[] = {1e-8, 2.4e-6, 7.5e-6};
  for (int i = 0; i < 3; ++i) {
    m.inter_gap_curve.bytes[i] = gb[i];
    m.inter_gap_curve.seconds[i] = gs[i];
  }
  m.intra_gap_curve.n = 0;
  m.codec_lz4 = {4.5e8, 2.25e9, 2.5};
  m.codec_zstd = {0, 0, 0};  // not calibrated: no "zstd" key
  const std::string p = tmp_path("roundtrip.json");
  char err[512] = "";
  ASSERT_EQ(arcoll_model_save(p.c_str(), &m, "{\"note\":\"test\",\"inter_copied_from_intra\":false}", err,
                              sizeof err), 0)
      << err;
  arcoll_model_t r;
  ASSERT_EQ(arcoll_model_load(p.c_str(), &r, err, sizeof err), 0) << err;
  const arcoll_p2p_params_t *a[2] = {&m.intra, &m.inter}, *b[2] = {&r.intra, &r.inter};
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(a[i]->t_s, b[i]->t_s);
    EXPECT_EQ(a[i]->B, b[i]->B);
    EXPECT_EQ(a[i]->L, b[i]->L);
    EXPECT_EQ(a[i]->o, b[i]->o);
    EXPECT_EQ(a[i]->g, b[i]->g);
    EXPECT_EQ(a[i]->G, b[i]->G);
  }
  EXPECT_EQ(r.gamma, 0.0);
  ASSERT_EQ(r.inter_curve.n, m.inter_curve.n);
  for (int i = 0; i < m.inter_curve.n; ++i) {
    EXPECT_EQ(r.inter_curve.bytes[i], m.inter_curve.bytes[i]);
    EXPECT_EQ(r.inter_curve.seconds[i], m.inter_curve.seconds[i]);
  }
  ASSERT_EQ(r.intra_curve.n, 2);
  EXPECT_EQ(r.inter_gap_curve.n, 3);
  EXPECT_EQ(r.inter_gap_curve.seconds[2], 7.5e-6);
  EXPECT_EQ(r.intra_gap_curve.n, 0);
  EXPECT_EQ(r.intra_curve.seconds[1], 9.75e-7);
  EXPECT_STREQ(r.source, p.c_str());
  EXPECT_EQ(r.codec_lz4.compress_Bps, 4.5e8);
  EXPECT_EQ(r.codec_lz4.decompress_Bps, 2.25e9);
  EXPECT_EQ(r.codec_lz4.ratio, 2.5);
  EXPECT_EQ(r.codec_zstd.compress_Bps, 0.0);
  // the extra keys are kept in the file
  std::ifstream in(p);
  nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_TRUE(j["codec"].contains("lz4"));
  EXPECT_FALSE(j["codec"].contains("zstd"));
  EXPECT_EQ(j["note"], "test");
  EXPECT_EQ(j["version"], 1);
  // same predictions from the loaded model
  const arcoll_algo_desc_t *ch = arcoll_algorithm_find(ARCOLL_COLL_BCAST, "chain");
  EXPECT_EQ(arcoll_model_predict(&m, ARCOLL_COLL_BCAST, ch, 64, 1 << 22, 4096, 0),
            arcoll_model_predict(&r, ARCOLL_COLL_BCAST, ch, 64, 1 << 22, 4096, 0));
  std::remove(p.c_str());
  // unwritable path
  EXPECT_EQ(arcoll_model_save("/nonexistent-dir/x.json", &m, nullptr, err, sizeof err), -1);
  EXPECT_NE(std::string(err).find("/nonexistent-dir/x.json"), std::string::npos) << err;
}

struct BadCase {
  const char *what, *text, *field;
};

TEST(ModelFile, BadFilesNameTheFileAndTheField) {
  const std::string good_p = R"("t_s":1e-6,"B":1e9,"L":1e-6,"o":1e-7,"g":1e-7,"G":1e-9)";
  auto doc = [&](const std::string &intra, const std::string &inter, const std::string &rest) {
    return "{\"version\":1,\"intra\":{" + intra + "},\"inter\":{" + inter + "}" + rest + "}";
  };
  const std::string ok = doc(good_p, good_p, ",\"gamma\":1e-10");
  std::string noB = R"("t_s":1e-6,"L":1e-6,"o":1e-7,"g":1e-7,"G":1e-9)";
  std::string zeroB = R"("t_s":1e-6,"B":0,"L":1e-6,"o":1e-7,"g":1e-7,"G":1e-9)";
  std::string negO = R"("t_s":1e-6,"B":1e9,"L":1e-6,"o":-1,"g":1e-7,"G":1e-9)";
  std::string strG = R"("t_s":1e-6,"B":1e9,"L":1e-6,"o":1e-7,"g":1e-7,"G":"fast")";
  std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"version\":1,", "JSON"},
      {"[1,2]", "object"},
      {doc(good_p, good_p, ",\"gamma\":1e-10").replace(11, 1, "2"), "version"},
      {doc(good_p, noB, ",\"gamma\":1e-10"), "inter.B"},
      {doc(zeroB, good_p, ",\"gamma\":1e-10"), "intra.B"},
      {doc(good_p, negO, ",\"gamma\":1e-10"), "inter.o"},
      {doc(good_p, strG, ",\"gamma\":1e-10"), "inter.G"},
      {doc(good_p, good_p, ""), "gamma"},
      {doc(good_p, good_p, ",\"gamma\":-1e-9"), "gamma"},
      {"{\"version\":1,\"intra\":3,\"inter\":{" + good_p + "},\"gamma\":0}", "intra"},
      {doc(good_p, good_p, ",\"gamma\":0,\"inter_curve\":[[0,1e-6],[0,2e-6]]"), "inter_curve[1]"},
      {doc(good_p, good_p, ",\"gamma\":0,\"intra_curve\":[[0,1e-6],[8,-1]]"), "intra_curve[1]"},
      {doc(good_p, good_p, ",\"gamma\":0,\"inter_curve\":{}"), "inter_curve"},
      {doc(good_p, good_p, ",\"gamma\":0,\"inter_gap_curve\":[[0,1e-6],[8,\"x\"]]"), "inter_gap_curve[1]"},
      {doc(good_p, good_p, ",\"gamma\":0,\"codec\":[1]"), "codec"},
      {doc(good_p, good_p, ",\"gamma\":0,\"codec\":{\"zstd\":3}"), "codec.zstd"},
      {doc(good_p, good_p,
           ",\"gamma\":0,\"codec\":{\"lz4\":{\"compress_Bps\":1e9,\"decompress_Bps\":2e9}}"),
       "codec.lz4.ratio"},
      {doc(good_p, good_p,
           ",\"gamma\":0,\"codec\":{\"lz4\":{\"compress_Bps\":0,\"decompress_Bps\":2e9,\"ratio\":2}}"),
       "codec.lz4.compress_Bps"},
  };
  const std::string p = tmp_path("bad.json");
  char err[512];
  write_file(p, ok);
  arcoll_model_t m;
  ASSERT_EQ(arcoll_model_load(p.c_str(), &m, err, sizeof err), 0) << err;
  EXPECT_EQ(m.inter.B, 1e9);
  EXPECT_EQ(m.inter_curve.n, 0);
  for (auto &[text, field] : cases) {
    write_file(p, text);
    arcoll_model_t before = m;
    err[0] = 0;
    ASSERT_EQ(arcoll_model_load(p.c_str(), &m, err, sizeof err), -1) << text;
    std::string e = err;
    EXPECT_NE(e.find(p), std::string::npos) << e;
    EXPECT_NE(e.find(field), std::string::npos) << "expected field " << field << " in: " << e;
    EXPECT_EQ(m.inter.B, before.inter.B);  // *m untouched on error
  }
  std::remove(p.c_str());
  const std::string missing = tmp_path("does_not_exist.json");
  ASSERT_EQ(arcoll_model_load(missing.c_str(), &m, err, sizeof err), -1);
  EXPECT_NE(std::string(err).find(missing), std::string::npos) << err;
}

// Output of arcoll-calibrate (run by ctest collectives.calibrate.np2 under
// MPICH at 2 ranks on one node): loads, sane values, inter copied from intra
// and the file says so, the measured curve has every size 0, 1, 2, ... , the
// codec entry of both codecs.
TEST(Calibrated, FileFromArcollCalibrate) {
  const char *p = std::getenv("ARCOLL_CALIBRATED_MODEL");
  if (!p) GTEST_SKIP() << "ARCOLL_CALIBRATED_MODEL not set (the mpi-labelled ctest sets it)";
  arcoll_model_t m;
  char err[512];
  ASSERT_EQ(arcoll_model_load(p, &m, err, sizeof err), 0) << err;
  EXPECT_GT(m.intra.B, 1e6);
  EXPECT_LT(m.intra.t_s, 1e-3);
  EXPECT_GT(m.intra.G, 0);
  EXPECT_GE(m.intra.L, 0);
  EXPECT_GE(m.gamma, 0);
  std::ifstream in(p);
  nlohmann::json j = nlohmann::json::parse(in);
  const char *max_env = std::getenv("ARCOLL_CALIBRATED_MAX_BYTES");
  long max_bytes = max_env ? std::atol(max_env) : 4L << 20;
  int npts = 1;
  for (long s = 1; s <= max_bytes; s *= 2) ++npts;
  if (j.value("inter_copied_from_intra", false)) {
    EXPECT_EQ(m.inter.t_s, m.intra.t_s);
    EXPECT_EQ(m.inter.B, m.intra.B);
    EXPECT_EQ(m.inter_curve.n, m.intra_curve.n);
  } else {
    EXPECT_TRUE(j.value("intra_copied_from_inter", false) || j.value("both_classes_measured", false));
  }
  ASSERT_EQ(m.intra_curve.n, npts);
  ASSERT_EQ(j["measurements"]["intra"].size(), (size_t)npts);
  for (int i = 0; i < npts; ++i) {
    EXPECT_EQ(m.intra_curve.bytes[i], i == 0 ? 0.0 : std::ldexp(1.0, i - 1));
    EXPECT_GT(m.intra_curve.seconds[i], 0);
    auto &pt = j["measurements"]["intra"][i];
    EXPECT_LE(pt["min_s"].get<double>(), pt["median_s"].get<double>());
    EXPECT_EQ(pt["median_s"].get<double>(), m.intra_curve.seconds[i]);
  }
  // stream periods: one per size, non-negative, read back like the file's
  ASSERT_EQ(m.intra_gap_curve.n, npts);
  for (int i = 0; i < npts; ++i) {
    EXPECT_EQ(m.intra_gap_curve.bytes[i], m.intra_curve.bytes[i]);
    EXPECT_GE(m.intra_gap_curve.seconds[i], 0);
    EXPECT_EQ(j["measurements"]["intra"][i]["stream_gap_s"].get<double>(), m.intra_gap_curve.seconds[i]);
  }
  // the largest message takes longer than the empty one (the minima: the
  // medians of a few repetitions are at the mercy of a loaded machine)
  EXPECT_GT(j["measurements"]["intra"][npts - 1]["min_s"].get<double>(),
            j["measurements"]["intra"][0]["min_s"].get<double>());
  // the codec entry: LZ4 and zstd-1 throughputs and ratio on text-like data
  for (const arcoll_codec_calib_t *c : {&m.codec_lz4, &m.codec_zstd}) {
    EXPECT_GT(c->compress_Bps, 1e6);
    EXPECT_GT(c->decompress_Bps, 1e6);
    EXPECT_GT(c->ratio, 1.5);  // arcoll_text_like compresses 2-6x
    EXPECT_LT(c->ratio, 20.0);
  }
  EXPECT_EQ(j["codec"]["zstd"]["ratio"].get<double>(), m.codec_zstd.ratio);
  // the selector runs on it
  arcoll_choice_t ch;
  EXPECT_EQ(arcoll_select(&m, ARCOLL_COLL_BCAST, 4, 1 << 20, 1, &ch), 0);
}

}  // namespace
