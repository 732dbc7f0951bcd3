// Model file reader and writer (select.h: arcoll_model_load, arcoll_model_save).
// Format (collectives/README.md, "Model file"):
//   {"version": 1,
//    "intra": {"t_s": s, "B": B/s, "L": s, "o": s, "g": s, "G": s/B},
//    "inter": {...same six fields...},
//    "gamma": s/B,
//    "intra_curve"/"inter_curve", "intra_gap_curve"/"inter_gap_curve":
//        optional [[bytes, seconds], ...] (select.h),
//    "codec": optional {"lz4": {"compress_Bps": B/s, "decompress_Bps": B/s,
//        "ratio": x}, "zstd": {...}, ...} (select.h arcoll_codec_calib_t; each
//        codec optional, its numbers > 0; other keys of "codec" ignored),
//    ...any other keys (notes, raw measurements) are ignored}
// B and G must be > 0; t_s, L, o, g and gamma >= 0.  Every error names the
// file and the field.  No exception leaves this file (C callers).
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "select.h"

namespace {

using nlohmann::json;

struct LoadError {
  std::string msg;
};

void set_err(char *err, int errlen, const std::string &msg) {
  if (err && errlen > 0) std::snprintf(err, (size_t)errlen, "%s", msg.c_str());
}

double number_field(const std::string &path, const json &obj, const std::string &prefix,
                    const char *key, bool strictly_positive) {
  const std::string field = prefix.empty() ? key : prefix + "." + key;
  auto it = obj.find(key);
  if (it == obj.end())
    throw LoadError{path + ": missing field \"" + field + "\" (see collectives/README.md, model file)"};
  if (!it->is_number())
    throw LoadError{path + ": field \"" + field + "\" must be a number, got " + it->dump()};
  double v = it->get<double>();
  if (!std::isfinite(v) || (strictly_positive ? !(v > 0) : v < 0))
    throw LoadError{path + ": field \"" + field + "\" must be " +
                    (strictly_positive ? "> 0" : ">= 0") + ", got " + it->dump()};
  return v;
}

void read_params(const std::string &path, const json &root, const char *key,
                 arcoll_p2p_params_t *p) {
  auto it = root.find(key);
  if (it == root.end())
    throw LoadError{path + ": missing field \"" + key + "\" (an object with t_s, B, L, o, g, G)"};
  if (!it->is_object())
    throw LoadError{path + ": field \"" + std::string(key) + "\" must be an object"};
  p->t_s = number_field(path, *it, key, "t_s", false);
  p->B = number_field(path, *it, key, "B", true);
  p->L = number_field(path, *it, key, "L", false);
  p->o = number_field(path, *it, key, "o", false);
  p->g = number_field(path, *it, key, "g", false);
  p->G = number_field(path, *it, key, "G", true);
}

void read_curve(const std::string &path, const json &root, const char *key,
                arcoll_p2p_curve_t *c) {
  c->n = 0;
  auto it = root.find(key);
  if (it == root.end()) return;  // optional
  const std::string k = key;
  if (!it->is_array() || it->size() < 2 || it->size() > ARCOLL_MODEL_CURVE_MAX)
    throw LoadError{path + ": field \"" + k + "\" must be an array of 2 to " +
                    std::to_string(ARCOLL_MODEL_CURVE_MAX) + " [bytes, seconds] pairs"};
  for (size_t i = 0; i < it->size(); ++i) {
    const json &e = (*it)[i];
    const std::string f = k + "[" + std::to_string(i) + "]";
    if (!e.is_array() || e.size() != 2 || !e[0].is_number() || !e[1].is_number())
      throw LoadError{path + ": field \"" + f + "\" must be [bytes, seconds], got " + e.dump()};
    double b = e[0].get<double>(), t = e[1].get<double>();
    if (!std::isfinite(b) || !std::isfinite(t) || t < 0 || (i == 0 ? b != 0 : b <= c->bytes[i - 1]))
      throw LoadError{path + ": field \"" + f + "\": bytes must start at 0 and increase, seconds >= 0; got " +
                      e.dump()};
    c->bytes[i] = b;
    c->seconds[i] = t;
  }
  c->n = (int)it->size();
}

void read_codec(const std::string &path, const json &root, const char *name,
                arcoll_codec_calib_t *c) {
  *c = arcoll_codec_calib_t{0, 0, 0};
  auto it = root.find("codec");
  if (it == root.end()) return;  // optional
  if (!it->is_object()) throw LoadError{path + ": field \"codec\" must be an object"};
  auto e = it->find(name);
  if (e == it->end()) return;  // this codec not calibrated
  const std::string k = std::string("codec.") + name;
  if (!e->is_object())
    throw LoadError{path + ": field \"" + k + "\" must be an object with compress_Bps, decompress_Bps, ratio"};
  c->compress_Bps = number_field(path, *e, k, "compress_Bps", true);
  c->decompress_Bps = number_field(path, *e, k, "decompress_Bps", true);
  c->ratio = number_field(path, *e, k, "ratio", true);
}

json codec_json(const arcoll_codec_calib_t &c) {
  return json{{"compress_Bps", c.compress_Bps}, {"decompress_Bps", c.decompress_Bps},
              {"ratio", c.ratio}};
}

json curve_json(const arcoll_p2p_curve_t &c) {
  json a = json::array();
  for (int i = 0; i < c.n; ++i) a.push_back(json::array({c.bytes[i], c.seconds[i]}));
  return a;
}

json params_json(const arcoll_p2p_params_t &p) {
  return json{{"t_s", p.t_s}, {"B", p.B}, {"L", p.L}, {"o", p.o}, {"g", p.g}, {"G", p.G}};
}

}  // namespace

extern "C" int arcoll_model_load(const char *path, arcoll_model_t *m, char *err, int errlen) {
  const std::string p = path ? path : "(null)";
  try {
    if (!path || !m) throw LoadError{p + ": no model file path given"};
    std::ifstream in(path);
    if (!in) throw LoadError{p + ": cannot open the model file: " + std::strerror(errno)};
    json root;
    try {
      root = json::parse(in);
    } catch (const json::parse_error &e) {
      throw LoadError{p + ": not valid JSON: " + e.what()};
    }
    if (!root.is_object()) throw LoadError{p + ": the model file must hold one JSON object"};
    auto v = root.find("version");
    if (v == root.end()) throw LoadError{p + ": missing field \"version\" (must be 1)"};
    if (!v->is_number_integer() || v->get<long>() != 1)
      throw LoadError{p + ": field \"version\" must be 1, got " + v->dump()};
    arcoll_model_t out;
    std::memset(&out, 0, sizeof out);
    read_params(p, root, "intra", &out.intra);
    read_params(p, root, "inter", &out.inter);
    out.gamma = number_field(p, root, "", "gamma", false);
    read_curve(p, root, "intra_curve", &out.intra_curve);
    read_curve(p, root, "inter_curve", &out.inter_curve);
    read_curve(p, root, "intra_gap_curve", &out.intra_gap_curve);
    read_curve(p, root, "inter_gap_curve", &out.inter_gap_curve);
    read_codec(p, root, "lz4", &out.codec_lz4);
    read_codec(p, root, "zstd", &out.codec_zstd);
    std::snprintf(out.source, sizeof out.source, "%s", path);
    *m = out;
    return 0;
  } catch (const LoadError &e) {
    set_err(err, errlen, e.msg);
  } catch (const std::exception &e) {
    set_err(err, errlen, p + ": " + e.what());
  }
  return -1;
}

extern "C" int arcoll_model_save(const char *path, const arcoll_model_t *m,
                                 const char *extra_json, char *err, int errlen) {
  const std::string p = path ? path : "(null)";
  try {
    if (!path || !m) throw LoadError{p + ": no model file path or model given"};
    json root = json::object();
    if (extra_json && *extra_json) {
      json extra;
      try {
        extra = json::parse(extra_json);
      } catch (const json::parse_error &e) {
        throw LoadError{p + ": extra fields are not valid JSON: " + e.what()};
      }
      if (!extra.is_object()) throw LoadError{p + ": extra fields must be a JSON object"};
      root = extra;
    }
    root["version"] = 1;
    root["intra"] = params_json(m->intra);
    root["inter"] = params_json(m->inter);
    root["gamma"] = m->gamma;
    if (m->intra_curve.n > 0) root["intra_curve"] = curve_json(m->intra_curve);
    if (m->inter_curve.n > 0) root["inter_curve"] = curve_json(m->inter_curve);
    if (m->intra_gap_curve.n > 0) root["intra_gap_curve"] = curve_json(m->intra_gap_curve);
    if (m->inter_gap_curve.n > 0) root["inter_gap_curve"] = curve_json(m->inter_gap_curve);
    const bool lz4 = m->codec_lz4.compress_Bps > 0, zstd = m->codec_zstd.compress_Bps > 0;
    if (lz4 || zstd) {
      json c = root.contains("codec") && root["codec"].is_object() ? root["codec"] : json::object();
      if (lz4) c["lz4"] = codec_json(m->codec_lz4);
      if (zstd) c["zstd"] = codec_json(m->codec_zstd);
      root["codec"] = c;
    }
    std::ofstream out(path);
    if (!out) throw LoadError{p + ": cannot write the model file: " + std::strerror(errno)};
    out << root.dump(2) << "\n";
    out.close();
    if (!out) throw LoadError{p + ": write failed"};
    return 0;
  } catch (const LoadError &e) {
    set_err(err, errlen, e.msg);
  } catch (const std::exception &e) {
    set_err(err, errlen, p + ": " + e.what());
  }
  return -1;
}
