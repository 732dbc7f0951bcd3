#include "clock_tree.hpp"

namespace arcoll::profiler {

int tree_rounds(int size) {
  int k = 0;
  while (size > 1 && (1LL << k) < size) k++;
  return k;
}

int tree_round_of(int rank) {
  if (rank <= 0) return -1;
  int k = 0;
  while ((2LL << k) <= rank) k++;
  return k;
}

int tree_parent(int rank) {
  if (rank <= 0) return -1;
  return rank - (1 << tree_round_of(rank));
}

std::vector<int> tree_children(int rank, int size) {
  std::vector<int> out;
  if (rank < 0) return out;
  for (long long d = 1; rank + d < size; d <<= 1)
    if (d > rank) out.push_back(int(rank + d));
  return out;
}

ClockSample best_ping(const PingPong *samples, int n) {
  ClockSample best;
  bool have = false;
  for (int i = 0; i < n; i++) {
    const PingPong &p = samples[i];
    double rtt = p.t_recv - p.t_send;
    if (!have || rtt < best.rtt) {
      best = ClockSample{p.t_child, 0.5 * (p.t_send + p.t_recv) - p.t_child, rtt};
      have = true;
    }
  }
  return best;
}

ClockSample compose(const ClockSample &to_parent, const ClockSample &parent) {
  return ClockSample{to_parent.t_local, to_parent.offset + parent.offset, to_parent.rtt + parent.rtt};
}

}  // namespace arcoll::profiler
