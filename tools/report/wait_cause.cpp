// Per-rank caused waiting time (wait_cause.hpp).
#include "wait_cause.hpp"

#include <map>
#include <utility>

namespace arcoll::report {

WaitCause caused_waits(const arcoll::trace::Trace &t) {
  WaitCause w;
  w.caused_s.assign(t.nranks, 0.0);
  w.times_last.assign(t.nranks, 0);
  // (comm_id, seq) -> indexes of its events in t.colls
  std::map<std::pair<uint64_t, uint64_t>, std::vector<size_t>> inst;
  for (size_t i = 0; i < t.colls.size(); ++i) {
    const auto &c = t.colls[i];
    if (c.rank < 0 || c.rank >= t.nranks) continue;
    inst[{c.comm_id, c.seq}].push_back(i);
  }
  for (const auto &[key, ev] : inst) {
    if (ev.size() < 2) continue;
    size_t last = ev[0];
    for (size_t i : ev) {
      const auto &c = t.colls[i], &l = t.colls[last];
      if (c.t_entry > l.t_entry || (c.t_entry == l.t_entry && c.rank < l.rank)) last = i;
    }
    const auto &L = t.colls[last];
    double sum = 0;
    for (size_t i : ev)
      if (i != last) sum += L.t_entry - t.colls[i].t_entry;
    w.caused_s[L.rank] += sum;
    w.times_last[L.rank] += 1;
    w.instances += 1;
  }
  return w;
}

}  // namespace arcoll::report
