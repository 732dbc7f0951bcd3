// Mapping files and initial mappings. See mapping_io.hpp.
#include "mapping_io.hpp"

#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include "sockets.hpp"

namespace arcoll::placement {

namespace {
std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}
bool is_rank_list(const std::string &s) {
  return !s.empty() && s.find_first_not_of("0123456789, \t") == std::string::npos;
}
}  // namespace

Mapping parse_mapping(const std::string &text, const std::string &path, const Topology &topo, int nranks) {
  std::map<std::string, int> host_of;
  for (size_t h = 0; h < topo.hosts.size(); ++h) host_of.emplace(topo.hosts[h].name, static_cast<int>(h));  // socket 0
  auto host_index = [&](const std::string &name, const std::string &where) {
    auto it = host_of.find(name);
    if (it == host_of.end())
      throw MappingError(fmt::format("{}: host \"{}\" is not in the hostfile; map only to hosts of --hosts", where,
                                     name));
    return it->second;
  };
  std::vector<std::pair<std::string, int>> lines;  // (body, lineno)
  {
    std::istringstream in(text);
    std::string line;
    int no = 0;
    while (std::getline(in, line)) {
      ++no;
      size_t h = line.find('#');
      std::string body = trim(h == std::string::npos ? line : line.substr(0, h));
      if (!body.empty()) lines.emplace_back(body, no);
    }
  }
  if (lines.empty()) throw MappingError(fmt::format("{}: no mapping in the file (empty)", path));
  Mapping m(nranks, -1);     // rank -> the host's socket-0 entry
  Mapping hint(nranks, -1);  // rank -> entry of its socket when the file gives one (rankfile slot=S:C)
  auto assign = [&](long r, int h, const std::string &where) {
    if (r < 0 || r >= nranks)
      throw MappingError(fmt::format("{}: rank {} is out of range; the trace has {} ranks (0..{})", where, r, nranks,
                                     nranks - 1));
    if (m[r] >= 0) throw MappingError(fmt::format("{}: rank {} is mapped twice", where, r));
    m[r] = h;
  };
  const std::string &first = lines[0].first;
  if (first.rfind("rank", 0) == 0) {
    for (auto &[body, no] : lines) {
      std::string where = fmt::format("{}:{}", path, no);
      long r = -1;
      char host[256] = {0};
      if (std::sscanf(body.c_str(), "rank %ld=%255[^ \t]", &r, host) != 2)
        throw MappingError(fmt::format("{}: expected \"rank N=host slot=K\" (Open MPI rankfile), got \"{}\"", where,
                                       body));
      assign(r, host_index(host, where), where);
      const char *slot = std::strstr(body.c_str(), "slot=");
      int sock = -1;
      if (slot && std::strchr(slot, ':') && std::sscanf(slot, "slot=%d:", &sock) == 1) {
        const Host &h = topo.hosts[m[r]];
        if (sock < 0 || sock >= h.sockets)
          throw MappingError(fmt::format("{}: slot={}:... names socket {} but host {} has {} socket(s) in the "
                                         "hostfile; use sockets 0..{}", where, sock, sock, h.name, h.sockets,
                                         h.sockets - 1));
        hint[r] = m[r] + sock;
      }
    }
  } else if (is_rank_list(first)) {
    // Host of line k: from the header arcoll writes ("ranks per node: h=n ..."), else hostfile order.
    std::vector<int> line_host;
    size_t hp = text.find("ranks per node:");
    if (hp != std::string::npos) {
      std::istringstream hs(text.substr(hp + 15, text.find('\n', hp) - hp - 15));
      std::string item;
      while (hs >> item) line_host.push_back(host_index(item.substr(0, item.find('=')), path + " (header)"));
    } else {
      for (size_t h = 0; h < topo.hosts.size(); ++h)
        if (topo.hosts[h].socket == 0) line_host.push_back(static_cast<int>(h));
    }
    size_t k = 0;
    for (auto &[body, no] : lines) {
      std::string where = fmt::format("{}:{}", path, no);
      if (!is_rank_list(body))
        throw MappingError(fmt::format("{}: expected a comma-separated list of ranks (MPICH_RANK_ORDER)", where));
      if (k >= line_host.size())
        throw MappingError(fmt::format("{}: more rank lines than hosts ({}; the header or the hostfile)", where,
                                       line_host.size()));
      std::stringstream ss(body);
      std::string tok;
      while (std::getline(ss, tok, ',')) {
        tok = trim(tok);
        if (!tok.empty()) assign(std::stol(tok), line_host[k], where);
      }
      ++k;
    }
  } else {
    long r = 0;
    for (auto &[body, no] : lines) {
      std::string where = fmt::format("{}:{}", path, no);
      std::string name = body;
      long count = 1;
      size_t colon = body.find(':');
      if (colon != std::string::npos) {
        name = body.substr(0, colon);
        char *end = nullptr;
        std::string c = body.substr(colon + 1);
        count = std::strtol(c.c_str(), &end, 10);
        if (c.empty() || *end != '\0' || count < 1)
          throw MappingError(fmt::format("{}: bad count \"{}\"; a line is host or host:N", where, c));
      } else if (body.find_first_of(" \t") != std::string::npos) {
        throw MappingError(fmt::format("{}: expected one host name per line (Slurm) or host:N (Hydra), got \"{}\"",
                                       where, body));
      }
      int h = host_index(name, where);
      for (long i = 0; i < count; ++i) {
        if (r >= nranks)
          throw MappingError(fmt::format("{}: the file maps more than the trace's {} ranks", where, nranks));
        assign(r++, h, where);
      }
    }
  }
  std::vector<int> used(topo.hosts.size(), 0);
  for (int r = 0; r < nranks; ++r) {
    if (m[r] < 0)
      throw MappingError(fmt::format("{}: rank {} is not mapped; the file must map all {} ranks of the trace", path,
                                     r, nranks));
    const Host &h = topo.hosts[m[r]];
    if (++used[m[r]] > h.slots * h.sockets)
      throw MappingError(fmt::format("{}: host {} gets more ranks than its {} slots in the hostfile", path, h.name,
                                     h.slots * h.sockets));
    if (hint[r] < 0) hint[r] = m[r];
  }
  return spread_over_sockets(node_mapping(m, topo), topo, hint);
}

Mapping read_mapping(const std::string &path, const Topology &topo, int nranks) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MappingError(fmt::format("{}: cannot open the mapping file for reading; check the path", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_mapping(ss.str(), path, topo, nranks);
}

Mapping random_mapping(int nranks, const Topology &topo, uint64_t seed) {
  std::vector<int> slots;
  for (size_t h = 0; h < topo.hosts.size(); ++h)
    for (int s = 0; s < topo.hosts[h].slots; ++s) slots.push_back(static_cast<int>(h));
  if (static_cast<int>(slots.size()) < nranks)
    throw std::invalid_argument(fmt::format("{} slots for {} ranks: add hosts or slots", slots.size(), nranks));
  std::mt19937_64 rng(seed);
  for (size_t i = slots.size(); i > 1; --i) std::swap(slots[i - 1], slots[rng() % i]);
  return Mapping(slots.begin(), slots.begin() + nranks);
}

}  // namespace arcoll::placement
