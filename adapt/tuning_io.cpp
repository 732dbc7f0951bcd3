// Tuning files (tuning.h): table operations, JSON reader and writer
// (nlohmann/json), wire form.  No exception leaves this file (C callers).

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "atomic_file.hpp"
#include "tuning.h"
#include "tuning_late.hpp"

namespace {

using nlohmann::json;

struct LoadError {
  std::string msg;
};

void set_err(char *err, int errlen, const std::string &msg) {
  if (err && errlen > 0) std::snprintf(err, (size_t)errlen, "%s", msg.c_str());
}

std::string coll_names() {
  std::string s;
  for (int c = 0; c < ARCOLL_COLL_COUNT; ++c)
    s += std::string(c ? ", " : "") + arcoll_coll_name((arcoll_coll_t)c);
  return s;
}

std::string algo_names(arcoll_coll_t c) {
  int n = 0;
  const arcoll_algo_desc_t *t = arcoll_algorithm_table(c, &n);
  std::string s;
  for (int i = 0; i < n; ++i) s += std::string(i ? ", " : "") + t[i].name;
  return s;
}

const char *source_of(const std::string &s) {
  if (s == "measured") return "measured";
  if (s == "model") return "model";
  return "tuning";
}

long long int_field(const std::string &where, const json &o, const char *key, long long lo,
                    long long hi, bool required, long long dflt) {
  auto it = o.find(key);
  if (it == o.end()) {
    if (required) throw LoadError{where + ": missing field \"" + key + "\""};
    return dflt;
  }
  if (!it->is_number_integer())
    throw LoadError{where + ": field \"" + key + "\" must be an integer, got " + it->dump()};
  long long v = it->get<long long>();
  if (v < lo || v > hi)
    throw LoadError{where + ": field \"" + key + "\" = " + std::to_string(v) + " is out of range " +
                    std::to_string(lo) + ".." + std::to_string(hi)};
  return v;
}

arcoll_tuning_entry_t read_choice(const std::string &where, const json &o) {
  if (!o.is_object()) throw LoadError{where + ": must be an object"};
  arcoll_tuning_entry_t x{};
  auto ci = o.find("collective");
  if (ci == o.end() || !ci->is_string())
    throw LoadError{where + ": field \"collective\" (a string: " + coll_names() + ") is missing"};
  const int c = arcoll::tuning_coll_from_name(ci->get<std::string>());
  if (c < 0)
    throw LoadError{where + ": unknown collective " + ci->dump() + "; use one of: " + coll_names()};
  x.coll = (arcoll_coll_t)c;
  x.P = (int)int_field(where, o, "P", 2, 1 << 30, true, 0);
  auto cm = o.find("commutative");
  if (cm == o.end()) x.commutative = 1;
  else if (cm->is_boolean()) x.commutative = cm->get<bool>() ? 1 : 0;
  else throw LoadError{where + ": field \"commutative\" must be true or false, got " + cm->dump()};
  x.size_class = (int)int_field(where, o, "size_class", 0, ARCOLL_NCLASS - 1, true, 0);
  x.bytes = (MPI_Aint)int_field(where, o, "bytes", 0, INT64_MAX, false, 0);
  auto ai = o.find("algorithm");
  if (ai == o.end() || !ai->is_string())
    throw LoadError{where + ": field \"algorithm\" (a string) is missing"};
  x.algo = arcoll_algorithm_find(x.coll, ai->get<std::string>().c_str());
  if (!x.algo)
    throw LoadError{where + ": " + arcoll_coll_name(x.coll) + " has no algorithm " + ai->dump() +
                    "; use one of: " + algo_names(x.coll)};
  if (!x.commutative && (x.algo->flags & ARCOLL_ALGO_COMMUTATIVE_ONLY))
    throw LoadError{where + ": algorithm \"" + x.algo->name +
                    "\" needs a commutative op but the choice is for a non-commutative one"};
  x.segment_bytes = (MPI_Aint)int_field(where, o, "segment_bytes", 0, INT64_MAX, false, 0);
  x.k = (int)int_field(where, o, "k", 0, 1 << 20, false, 0);
  auto si = o.find("source");
  x.source = source_of(si != o.end() && si->is_string() ? si->get<std::string>() : "");
  return x;
}

bool key_less(const arcoll_tuning_entry_t &a, const arcoll_tuning_entry_t &b) {
  if (a.coll != b.coll) return a.coll < b.coll;
  if (a.P != b.P) return a.P < b.P;
  if (a.commutative != b.commutative) return a.commutative > b.commutative;
  return a.size_class < b.size_class;
}

}  // namespace

namespace arcoll {

int tuning_coll_from_name(const std::string &s) {
  for (int c = 0; c < ARCOLL_COLL_COUNT; ++c)
    if (s == arcoll_coll_name((arcoll_coll_t)c)) return c;
  return -1;
}

}  // namespace arcoll

extern "C" {

const arcoll_tuning_entry_t *arcoll_tuning_find(const arcoll_tuning_t *t, arcoll_coll_t c, int P,
                                                int commutative, int size_class) {
  if (!t) return nullptr;
  for (int i = 0; i < t->n; ++i) {
    const arcoll_tuning_entry_t &x = t->e[i];
    if (x.coll == c && x.P == P && x.commutative == (commutative != 0) &&
        x.size_class == size_class)
      return &x;
  }
  return nullptr;
}

int arcoll_tuning_add(arcoll_tuning_t *t, const arcoll_tuning_entry_t *x) {
  if (arcoll_tuning_find(t, x->coll, x->P, x->commutative, x->size_class)) return 0;
  if (t->n == t->cap) {
    const int cap = t->cap ? 2 * t->cap : 16;
    void *p = std::realloc(t->e, sizeof(*t->e) * (size_t)cap);
    if (!p) return -1;
    t->e = (arcoll_tuning_entry_t *)p;
    t->cap = cap;
  }
  t->e[t->n] = *x;
  t->e[t->n].commutative = x->commutative != 0;
  ++t->n;
  return 1;
}

void arcoll_tuning_free(arcoll_tuning_t *t) {
  std::free(t->e);
  t->e = nullptr;
  t->n = t->cap = 0;
  std::free(t->late);
  t->late = nullptr;
  t->nlate = t->late_cap = 0;
}

int arcoll_tuning_load(const char *path, arcoll_tuning_t *t, char *err, int errlen) {
  const std::string p = path ? path : "";
  try {
    std::ifstream in(p);
    if (!in) throw LoadError{p + ": cannot open (" + std::strerror(errno) + ")"};
    json root;
    try {
      root = json::parse(in);
    } catch (const json::exception &e) {
      throw LoadError{p + ": not a JSON tuning file: " + e.what()};
    }
    if (!root.is_object() || !root.contains("arcoll_tuning"))
      throw LoadError{p + ": not an arcoll tuning file (no field \"arcoll_tuning\"; write one with "
                          "ARCOLL_TUNING_OUT=FILE)"};
    if (root["arcoll_tuning"] != ARCOLL_TUNING_VERSION)
      throw LoadError{p + ": version " + root["arcoll_tuning"].dump() + " is not supported (this "
                      "libarcoll reads version " + std::to_string(ARCOLL_TUNING_VERSION) + ")"};
    auto ch = root.find("choices");
    if (ch == root.end() || !ch->is_array())
      throw LoadError{p + ": field \"choices\" (an array) is missing"};
    for (size_t i = 0; i < ch->size(); ++i) {
      const std::string where = p + ": choices[" + std::to_string(i) + "]";
      arcoll_tuning_entry_t x = read_choice(where, (*ch)[i]);
      const int r = arcoll_tuning_add(t, &x);
      if (r == 0)
        throw LoadError{where + ": a second choice for " + arcoll_coll_name(x.coll) + " P=" +
                        std::to_string(x.P) + " size_class " + std::to_string(x.size_class)};
      if (r < 0) throw LoadError{p + ": out of memory"};
    }
    arcoll::tuning_late_read(root, t);
    return 0;
  } catch (const LoadError &e) {
    arcoll_tuning_free(t);
    set_err(err, errlen, e.msg);
  } catch (const std::exception &e) {
    arcoll_tuning_free(t);
    set_err(err, errlen, p + ": " + e.what());
  }
  return -1;
}

int arcoll_tuning_save(const char *path, const arcoll_tuning_t *t, char *err, int errlen) {
  const std::string p = path ? path : "";
  try {
    std::vector<arcoll_tuning_entry_t> v(t->e, t->e + t->n);
    std::sort(v.begin(), v.end(), key_less);
    json arr = json::array();
    for (const auto &x : v)
      arr.push_back({{"collective", arcoll_coll_name(x.coll)},
                     {"P", x.P},
                     {"commutative", x.commutative != 0},
                     {"size_class", x.size_class},
                     {"bytes", (long long)x.bytes},
                     {"algorithm", x.algo->name},
                     {"segment_bytes", (long long)x.segment_bytes},
                     {"k", x.k},
                     {"source", x.source ? x.source : "measured"}});
    json root = {{"arcoll_tuning", ARCOLL_TUNING_VERSION},
                 {"note", "algorithm choices of libarcoll (adapt/tuning.h); read with ARCOLL_TUNING=FILE"},
                 {"choices", arr}};
    if (t->nlate > 0) root["lateness"] = arcoll::tuning_late_json(t);
    arcoll::write_file_atomically(p, root.dump(1) + "\n");
    return 0;
  } catch (const LoadError &e) {
    set_err(err, errlen, e.msg);
  } catch (const std::exception &e) {
    set_err(err, errlen, p + ": " + e.what());
  }
  return -1;
}

void arcoll_tuning_pack(const arcoll_tuning_entry_t *x, arcoll_tuning_wire_t *w) {
  std::memset(w, 0, sizeof *w);
  w->coll = x->coll;
  w->P = x->P;
  w->commutative = x->commutative;
  w->size_class = x->size_class;
  w->k = x->k;
  w->bytes = x->bytes;
  w->segment_bytes = x->segment_bytes;
  std::snprintf(w->algo, sizeof w->algo, "%s", x->algo->name);
  std::snprintf(w->source, sizeof w->source, "%s", x->source ? x->source : "measured");
}

int arcoll_tuning_unpack(const arcoll_tuning_wire_t *w, arcoll_tuning_entry_t *x) {
  if (w->coll < 0 || w->coll >= ARCOLL_COLL_COUNT) return -1;
  char name[ARCOLL_TUNING_NAME], src[sizeof w->source];
  std::memcpy(name, w->algo, sizeof name);
  name[sizeof name - 1] = 0;
  std::memcpy(src, w->source, sizeof src);
  src[sizeof src - 1] = 0;
  const arcoll_algo_desc_t *a = arcoll_algorithm_find((arcoll_coll_t)w->coll, name);
  if (!a) return -1;
  x->coll = (arcoll_coll_t)w->coll;
  x->P = w->P;
  x->commutative = w->commutative != 0;
  x->size_class = w->size_class;
  x->k = w->k;
  x->bytes = (MPI_Aint)w->bytes;
  x->segment_bytes = (MPI_Aint)w->segment_bytes;
  x->algo = a;
  x->source = source_of(src);
  return 0;
}

}  // extern "C"
