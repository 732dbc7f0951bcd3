// Model file reader and writer (select.h: arcoll_model_load, arcoll_model_save).
// Format (collectives/README.md, "Model file"):
//   {"version": 1,
//    "intra": {"t_s": s, "B": B/s, "L": s, "o": s, "g": s, "G": s/B},
//    "inter": {...same six fields...},
//    "gamma": s/B,
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
