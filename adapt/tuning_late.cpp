// Tuning files' late sets (tuning.h, "lateness"): table, checks, JSON.
// No exception leaves the extern "C" functions.
#include "tuning_late.hpp"

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "late_trees.h"

namespace {

using nlohmann::json;

const char *tree_name(int tree) {
  return tree == ARCOLL_TREES_FIRST ? "first" : tree == ARCOLL_TREES_SECOND ? "second" : "undecided";
}

bool same_key(const arcoll_tuning_late_t &a, const arcoll_tuning_late_t &b) {
  return a.coll == b.coll && a.P == b.P && a.site == b.site && a.root == b.root;
}

[[noreturn]] void fail(const std::string &where, const std::string &what) {
  throw std::runtime_error(where + ": " + what);
}

double seconds(const std::string &where, const json &o, const char *key) {
  auto it = o.find(key);
  if (it == o.end()) fail(where, std::string("missing field \"") + key + "\" (seconds)");
  if (!it->is_number()) fail(where, std::string("field \"") + key + "\" must be a number of seconds");
  const double v = it->get<double>();
  if (!std::isfinite(v) || v < 0) fail(where, std::string("field \"") + key + "\" must be >= 0 seconds");
  return v;
}

long long integer(const std::string &where, const json &o, const char *key) {
  auto it = o.find(key);
  if (it == o.end() || !it->is_number_integer())
    fail(where, std::string("field \"") + key + "\" (an integer) is missing");
  return it->get<long long>();
}

arcoll_tuning_late_t read_one(const std::string &where, const json &o) {
  if (!o.is_object()) fail(where, "must be an object");
  arcoll_tuning_late_t x;
  std::memset(&x, 0, sizeof x);
  auto ci = o.find("collective");
  if (ci == o.end() || !ci->is_string()) fail(where, "field \"collective\" (a string) is missing");
  x.coll = arcoll::tuning_coll_from_name(ci->get<std::string>());
  if (x.coll < 0) fail(where, "unknown collective " + ci->dump());
  const long long P = integer(where, o, "P"), root = integer(where, o, "root");
  if (P < 2 || P > (1 << 30)) fail(where, "field \"P\" must be 2..2^30");
  x.P = (int32_t)P;
  if (root < 0 || root >= P) fail(where, "field \"root\" must be 0..P-1");
  x.root = (int32_t)root;
  auto si = o.find("site");
  if (si == o.end() || !si->is_string()) fail(where, "field \"site\" (a hex string, \"0x...\") is missing");
  const std::string s = si->get<std::string>();
  char *end = nullptr;
  errno = 0;
  x.site = (uint64_t)std::strtoull(s.c_str(), &end, 16);
  if (s.size() < 3 || s.compare(0, 2, "0x") || errno || !end || *end)
    fail(where, "field \"site\" must be a hex string \"0x...\", got " + si->dump());
  x.t_level = (float)seconds(where, o, "t_level_s");
  x.noise = (float)seconds(where, o, "noise_s");
  auto ti = o.find("tolerant_tree");
  const std::string tree = ti != o.end() && ti->is_string() ? ti->get<std::string>() : "undecided";
  x.tree = tree == "first" ? ARCOLL_TREES_FIRST : tree == "second" ? ARCOLL_TREES_SECOND : 0;
  if (ti != o.end() && (!ti->is_string() || (!x.tree && tree != "undecided")))
    fail(where, "field \"tolerant_tree\" must be \"first\", \"second\" or \"undecided\"");
  auto li = o.find("late");
  if (li == o.end() || !li->is_array() || li->empty() || li->size() > ARCOLL_LATE_LIST)
    fail(where, "field \"late\" must be an array of 1.." + std::to_string(ARCOLL_LATE_LIST) +
                    " {\"rank\", \"caused_s\"}");
  for (size_t i = 0; i < li->size(); ++i) {
    const std::string w = where + ": late[" + std::to_string(i) + "]";
    if (!(*li)[i].is_object()) fail(w, "must be an object");
    x.rank[i] = (int32_t)integer(w, (*li)[i], "rank");
    x.caused[i] = (float)seconds(w, (*li)[i], "caused_s");
    x.n = (int32_t)i + 1;
  }
  if (const char *bad = arcoll_tuning_late_invalid(&x)) fail(where, bad);
  return x;
}

}  // namespace

namespace arcoll {

json tuning_late_json(const arcoll_tuning_t *t) {
  json arr = json::array();
  for (int i = 0; i < t->nlate; ++i) {
    const arcoll_tuning_late_t &x = t->late[i];
    char site[32];
    std::snprintf(site, sizeof site, "0x%016" PRIx64, x.site);
    json late = json::array();
    for (int j = 0; j < x.n; ++j) late.push_back({{"rank", x.rank[j]}, {"caused_s", x.caused[j]}});
    arr.push_back({{"collective", arcoll_coll_name((arcoll_coll_t)x.coll)},
                   {"P", x.P},
                   {"site", site},
                   {"root", x.root},
                   {"t_level_s", x.t_level},
                   {"noise_s", x.noise},
                   {"tolerant_tree", tree_name(x.tree)},
                   {"late", late}});
  }
  return arr;
}

void tuning_late_read(const json &root, arcoll_tuning_t *t) {
  auto it = root.find("lateness");
  if (it == root.end()) return;
  if (!it->is_array()) throw std::runtime_error("field \"lateness\" must be an array");
  for (size_t i = 0; i < it->size(); ++i) {
    const std::string where = "lateness[" + std::to_string(i) + "]";
    const arcoll_tuning_late_t x = read_one(where, (*it)[i]);
    const int r = arcoll_tuning_add_late(t, &x);
    if (r == 0) fail(where, "a second late set for the same collective, P, site and root");
    if (r < 0) throw std::runtime_error("out of memory");
  }
}

}  // namespace arcoll

extern "C" {

const char *arcoll_tuning_late_invalid(const arcoll_tuning_late_t *x) {
  if (x->coll < 0 || x->coll >= ARCOLL_COLL_COUNT) return "unknown collective";
  if (x->P < 2) return "P must be >= 2";
  if (x->root < 0 || x->root >= x->P) return "root must be 0..P-1";
  if (x->tree < 0 || x->tree > ARCOLL_TREES_SECOND) return "tolerant tree unknown";
  if (!(x->t_level >= 0) || !std::isfinite(x->t_level) || !(x->noise >= 0) || !std::isfinite(x->noise))
    return "t_level_s and noise_s must be >= 0 seconds";
  if (x->n < 1 || x->n > ARCOLL_LATE_LIST) return "late must list 1..ARCOLL_LATE_LIST (32) ranks";
  for (int i = 0; i < x->n; ++i) {
    if (x->rank[i] < 0 || x->rank[i] >= x->P) return "a late rank is out of 0..P-1";
    if (x->rank[i] == x->root) return "the root cannot be late (its lateness delays every rank alike)";
    if (!(x->caused[i] >= 0) || !std::isfinite(x->caused[i])) return "caused_s must be >= 0 seconds";
    for (int j = 0; j < i; ++j)
      if (x->rank[j] == x->rank[i]) return "a late rank is listed twice";
  }
  return nullptr;
}

int arcoll_tuning_add_late(arcoll_tuning_t *t, const arcoll_tuning_late_t *x) {
  for (int i = 0; i < t->nlate; ++i)
    if (same_key(t->late[i], *x)) return 0;
  if (t->nlate == t->late_cap) {
    const int cap = t->late_cap ? 2 * t->late_cap : 8;
    void *p = std::realloc(t->late, sizeof(*t->late) * (size_t)cap);
    if (!p) return -1;
    t->late = (arcoll_tuning_late_t *)p;
    t->late_cap = cap;
  }
  t->late[t->nlate++] = *x;
  return 1;
}

int arcoll_tuning_merge_late(arcoll_tuning_t *out, const arcoll_tuning_late_t *run, int n,
                             const arcoll_tuning_t *file) {
  auto tracked = [&](const arcoll_tuning_late_t &x) {
    for (int i = 0; i < n; ++i)
      if (same_key(run[i], x)) return true;
    return false;
  };
  for (int i = 0; file && i < file->nlate; ++i)
    if (!tracked(file->late[i]) && arcoll_tuning_add_late(out, &file->late[i]) < 0) return -1;
  for (int i = 0; i < n; ++i)
    if (run[i].n > 0 && !arcoll_tuning_late_invalid(&run[i]) && arcoll_tuning_add_late(out, &run[i]) < 0)
      return -1;
  return 0;
}

}  // extern "C"
