// Launcher file writers. See launch_files.hpp.
#include "launch_files.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ostream.h>

namespace arcoll::placement {

LaunchFormat parse_launch_format(const std::string &name) {
  if (name == "hydra") return LaunchFormat::Hydra;
  if (name == "rankfile") return LaunchFormat::Rankfile;
  if (name == "slurm") return LaunchFormat::Slurm;
  if (name == "cray") return LaunchFormat::Cray;
  throw std::invalid_argument(fmt::format("unknown launch file format \"{}\"; use hydra, rankfile, slurm or cray", name));
}

void write_hydra(std::ostream &os, const Mapping &map, const std::vector<Host> &hosts) {
  size_t r = 0;
  while (r < map.size()) {
    size_t e = r;
    while (e < map.size() && hosts[map[e]].name == hosts[map[r]].name) ++e;  // the sockets of one host merge
    os << hosts[map[r]].name << ':' << (e - r) << '\n';
    r = e;
  }
}

void write_rankfile(std::ostream &os, const Mapping &map, const std::vector<Host> &hosts) {
  std::vector<int> next(hosts.size(), 0);
  for (size_t r = 0; r < map.size(); ++r) {
    const Host &h = hosts[map[r]];
    os << "rank " << r << '=' << h.name << " slot=";
    if (h.sockets > 1) os << h.socket << ':';
    os << next[map[r]]++ << '\n';
  }
}

std::string hydra_bind_option(const Mapping &map, const std::vector<Host> &hosts) {
  bool sockets = false;
  for (const Host &h : hosts) sockets |= h.sockets > 1;
  if (!sockets) return "";
  // Per host name: the CPUs of each of its ranks in rank order (= Hydra's local process order).
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> cores;
  std::vector<int> next(hosts.size(), 0);
  for (size_t r = 0; r < map.size(); ++r) {
    const Host &h = hosts[map[r]];
    const int per = h.cores > 0 ? h.cores : h.slots;
    size_t k = std::find(names.begin(), names.end(), h.name) - names.begin();
    if (k == names.size()) {
      names.push_back(h.name);
      cores.emplace_back();
    }
    const int core = h.socket * per + next[map[r]]++;  // logical, socket by socket
    cores[k].push_back(core < static_cast<int>(h.core_cpus.size()) ? h.core_cpus[core] : std::to_string(core));
  }
  const auto &longest = *std::max_element(cores.begin(), cores.end(),
                                          [](const auto &x, const auto &y) { return x.size() < y.size(); });
  for (auto &c : cores)  // every host's list must be a prefix of the longest
    if (!std::equal(c.begin(), c.end(), longest.begin())) return "";
  std::string out = "-bind-to user:";
  for (size_t i = 0; i < longest.size(); ++i) out += (i ? "," : "") + longest[i];
  return out;
}

void write_slurm(std::ostream &os, const Mapping &map, const std::vector<Host> &hosts) {
  for (int h : map) os << hosts[h].name << '\n';
}

void write_cray(std::ostream &os, const Mapping &map, const std::vector<Host> &hosts) {
  // Per host name (the sockets of a host merge, socket 0's ranks first), in hostfile order.
  std::vector<std::string> names;
  std::vector<std::vector<size_t>> ranks;
  std::vector<std::vector<size_t>> of_entry(hosts.size());
  for (size_t r = 0; r < map.size(); ++r) of_entry[map[r]].push_back(r);
  for (size_t h = 0; h < hosts.size(); ++h) {
    if (names.empty() || names.back() != hosts[h].name) {
      names.push_back(hosts[h].name);
      ranks.emplace_back();
    }
    ranks.back().insert(ranks.back().end(), of_entry[h].begin(), of_entry[h].end());
  }
  os << "# MPICH_RANK_ORDER written by arcoll place: use with MPICH_RANK_REORDER_METHOD=3\n";
  os << "# nodes in this order, ranks per node:";
  for (size_t h = 0; h < names.size(); ++h)
    if (!ranks[h].empty()) os << ' ' << names[h] << '=' << ranks[h].size();
  os << '\n';
  for (size_t h = 0; h < names.size(); ++h) {
    if (ranks[h].empty()) continue;
    for (size_t i = 0; i < ranks[h].size(); ++i) os << (i ? "," : "") << ranks[h][i];
    os << '\n';
  }
}

void write_launch_file(std::ostream &os, LaunchFormat f, const Mapping &map, const std::vector<Host> &hosts) {
  switch (f) {
    case LaunchFormat::Hydra: write_hydra(os, map, hosts); break;
    case LaunchFormat::Rankfile: write_rankfile(os, map, hosts); break;
    case LaunchFormat::Slurm: write_slurm(os, map, hosts); break;
    case LaunchFormat::Cray: write_cray(os, map, hosts); break;
  }
}

}  // namespace arcoll::placement
