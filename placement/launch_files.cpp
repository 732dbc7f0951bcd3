// Launcher file writers. See launch_files.hpp.
#include "launch_files.hpp"

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
    while (e < map.size() && map[e] == map[r]) ++e;
    os << hosts[map[r]].name << ':' << (e - r) << '\n';
    r = e;
  }
}

void write_rankfile(std::ostream &os, const Mapping &map, const std::vector<Host> &hosts) {
  std::vector<int> next(hosts.size(), 0);
  for (size_t r = 0; r < map.size(); ++r)
    os << "rank " << r << '=' << hosts[map[r]].name << " slot=" << next[map[r]]++ << '\n';
}

void write_slurm(std::ostream &os, const Mapping &map, const std::vector<Host> &hosts) {
  for (int h : map) os << hosts[h].name << '\n';
}

void write_cray(std::ostream &os, const Mapping &map, const std::vector<Host> &hosts) {
  std::vector<std::vector<size_t>> ranks(hosts.size());
  for (size_t r = 0; r < map.size(); ++r) ranks[map[r]].push_back(r);
  os << "# MPICH_RANK_ORDER written by arcoll place: use with MPICH_RANK_REORDER_METHOD=3\n";
  os << "# nodes in this order, ranks per node:";
  for (size_t h = 0; h < hosts.size(); ++h)
    if (!ranks[h].empty()) os << ' ' << hosts[h].name << '=' << ranks[h].size();
  os << '\n';
  for (size_t h = 0; h < hosts.size(); ++h) {
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
