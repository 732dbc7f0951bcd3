// Tuning file -> the report's "algorithms" object (report_tuning.hpp).
#include "report_tuning.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <stdexcept>
#include <tuple>

namespace arcoll::report {

using nlohmann::json;

json read_tuning_choices(const std::string &path, const json &data) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the tuning file (--tuning)");
  json root;
  try {
    root = json::parse(in);
  } catch (const json::exception &e) {
    throw std::runtime_error(path + ": not a JSON tuning file: " + e.what());
  }
  if (!root.is_object() || !root.contains("arcoll_tuning") || root["arcoll_tuning"] != 1)
    throw std::runtime_error(path + ": not an arcoll tuning file of version 1 (expected {\"arcoll_tuning\": 1, "
                             "\"choices\": [...]}, written with ARCOLL_TUNING_OUT)");
  if (!root.contains("choices") || !root["choices"].is_array())
    throw std::runtime_error(path + ": \"choices\" is missing or not an array");
  std::set<std::string> ops;
  for (auto &s : data.at("callsites")) ops.insert(s.at("op").get<std::string>());
  json out = json::array();
  const json &ch = root["choices"];
  for (size_t i = 0; i < ch.size(); ++i) {
    const json &e = ch[i];
    auto where = path + ": choices[" + std::to_string(i) + "]";
    if (!e.is_object() || !e.contains("collective") || !e["collective"].is_string() || !e.contains("P") ||
        !e["P"].is_number_integer() || !e.contains("algorithm") || !e["algorithm"].is_string())
      throw std::runtime_error(where + ": needs \"collective\" (string), \"P\" (integer) and \"algorithm\" (string)");
    std::string coll = e["collective"];
    out.push_back({{"collective", coll}, {"P", e["P"]}, {"commutative", e.value("commutative", true)},
                   {"bytes", e.value("bytes", 0LL)}, {"size_class", e.value("size_class", 0)},
                   {"algorithm", e["algorithm"]}, {"segment_bytes", e.value("segment_bytes", 0LL)},
                   {"k", e.value("k", 0)}, {"source", e.value("source", std::string("measured"))},
                   {"in_trace", ops.count(coll) > 0}});
  }
  std::stable_sort(out.begin(), out.end(), [](const json &a, const json &b) {
    return std::make_tuple(a["collective"].get<std::string>(), a["P"].get<long long>(), a["bytes"].get<long long>()) <
           std::make_tuple(b["collective"].get<std::string>(), b["P"].get<long long>(), b["bytes"].get<long long>());
  });
  return {{"source", "tuning"}, {"path", path},
          {"note", "choices kept by a run with libarcoll.so (tuning file " + path +
                       "); the trace itself records no algorithm choices"},
          {"choices", out}};
}

}  // namespace arcoll::report
