/**
 * @file clock_tree.hpp
 * @brief The MPI-free part of the profiler's clock synchronisation: the
 *        binomial-tree schedule and the composition of clock offsets along it.
 *
 * Scheme (as Score-P / Scalasca synchronise clocks hierarchically): in round
 * k = 0, 1, ..., ceil(log2 P) - 1 every rank r < 2^k that already knows its
 * offset to rank 0 ping-pongs rank r + 2^k (its child) and sends it the
 * composed offset. So rank r > 0 is synchronised in round floor(log2 r) by
 * its parent r - 2^floor(log2 r), every rank takes part in at most
 * ceil(log2 P) rounds, and the whole scheme costs ceil(log2 P) x (rounds of
 * ping-pong + one message) round trips on the critical path, instead of
 * (P - 1) x rounds when rank 0 ping-pongs every rank in turn.
 *
 * All times are in seconds.
 */
#ifndef ARCOLL_CLOCK_TREE_HPP
#define ARCOLL_CLOCK_TREE_HPP

#include <vector>

namespace arcoll::profiler {

/** One ping-pong seen from the parent: it sent at t_send and received the
 *  answer at t_recv (parent clock); the child read its clock at t_child. */
struct PingPong {
  double t_send = 0;
  double t_child = 0;
  double t_recv = 0;
};

/** Offset of one rank's clock to rank 0's (seconds). */
struct ClockSample {
  double t_local = 0;  ///< this rank's clock when it answered the best ping
  double offset = 0;   ///< rank-0 clock minus this rank's clock at t_local
  double rtt = 0;      ///< sum of the best round-trip times along the tree path (error bound: rtt / 2)
};

/** Number of rounds of the tree for `size` ranks: ceil(log2 size); 0 for size <= 1. */
int tree_rounds(int size);

/** Round in which `rank` is synchronised: floor(log2 rank); -1 for rank 0 (or a negative rank). */
int tree_round_of(int rank);

/** Parent of `rank` in the tree: rank - 2^floor(log2 rank); -1 for rank 0. */
int tree_parent(int rank);

/** Children of `rank` among `size` ranks, in the order they are served
 *  (rank + 2^k for every k with 2^k > rank and rank + 2^k < size, k ascending). */
std::vector<int> tree_children(int rank, int size);

/**
 * Cristian's estimate from `n` ping-pongs of a parent with a child: the one
 * with the smallest round-trip time t_recv - t_send gives the child's offset
 * to the parent's clock, (t_send + t_recv) / 2 - t_child, with error at most
 * rtt / 2. Returns {t_child, offset, rtt} of that ping-pong; {0, 0, 0} if n <= 0.
 */
ClockSample best_ping(const PingPong *samples, int n);

/**
 * Offset of a child to rank 0 from its offset to its parent (`to_parent`,
 * from best_ping) and the parent's offset to rank 0 (`parent`): the offsets
 * add, and so do the error bounds (rtt). Drift between the two measurements
 * (a few round trips apart) is neglected. Returns {to_parent.t_local,
 * to_parent.offset + parent.offset, to_parent.rtt + parent.rtt}.
 */
ClockSample compose(const ClockSample &to_parent, const ClockSample &parent);

}  // namespace arcoll::profiler
#endif
