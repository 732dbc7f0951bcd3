/**
 * @file cost.hpp
 * @brief The contention-aware estimated communication time of a mapping.
 *
 * Seed 001_6a837e3d9ad6c429.txt ("Rank placement"), estimated time:
 *
 *     T(pi) = sum_t max_{(i->j) in CCS_t} [ L(pi(i),pi(j))
 *                                          + S(t,i,j) * coll(t,pi(i),pi(j)) / B(pi(i),pi(j)) ]
 *
 *  - L(p,q): sum of the latencies of the links of route(p,q), seconds;
 *  - B(p,q): bottleneck bandwidth of route(p,q), bytes/s;
 *  - S(t,i,j): bytes i -> j in step t;
 *  - coll(t,p,q) = 1 + max over the directed links of route(p,q) of the number
 *    of OTHER messages of step t whose route uses that link
 *    (= max over the links of the number of messages of step t on the link).
 *  Messages between two ranks of one host use the host's node-internal link
 *  (so they collide with each other, not with the network); on a host split
 *  into sockets (HOSTS.md) the socket's internal link, or between two sockets
 *  the two sockets' links to the inter-socket interconnect (route_into):
 *  every model below charges them like any other link.
 *
 * With Topology::contention == Contention::Volume (topology.hpp) the
 * collision term is replaced by the time the most loaded link of the route
 * needs for the step's bytes on it:
 *
 *     L(p,q) + max_{k in route(p,q)} V(t,k) / B_k,   V(t,k) = sum of the bytes of
 *                                                    the step's messages on k
 *
 * (a generalisation, not in seed 001: with equal message sizes it equals the
 * formula above; with irregular volumes the count model charges a big message
 * as many times its own size as there are small messages on its links).
 *
 * With Contention::Blend (not in seed 001; for workloads without a barrier
 * between steps, measured against SMPI in placement/EXPERIMENTS.md "Fidelity"):
 *
 *     1/2 [ max_m (L_m + max_{k in route(m)} t_k) ]        (Volume: steps separated)
 *   + 1/2 [ max_m L_m + sum_k t_k^2 / sum_k t_k ],        t_k = V(t,k) / B_k
 *
 * the second term being the mean busy time of the step's links weighted by
 * their busy time (the expected busy time of the link that an arbitrary
 * moment of link activity belongs to): when ranks run ahead into the next
 * step, one hot link no longer sets the pace alone, the load of all links
 * does. Seed 001's count model ranked the irregular UMT-like workload's
 * mappings 0.79 against SMPI, this one 0.94.
 *
 * Collisions are counted per DIRECTED link per step: a full-duplex cable is
 * two links (Topology::up_link / down_link), so i->j and j->i never collide;
 * two messages of one step collide when their routes share a directed link;
 * messages of different steps never collide (steps are assumed separated,
 * see advice.hpp for when that assumption fails).
 *
 * Secondary metrics: hop-bytes = sum over all messages of bytes * hops(route)
 * (hops = network links; 0 inside a host); inter-socket bytes = sum of the
 * bytes between two sockets of one host; max link congestion = the largest
 * number of messages of one step on one network link.
 *
 * Cost of one evaluation: O(sum over steps of messages x route length); the
 * routes are computed on demand (Topology::route_into), no H x H table.
 */
#ifndef ARCOLL_PLACEMENT_COST_HPP
#define ARCOLL_PLACEMENT_COST_HPP

#include <cstdint>
#include <vector>

#include "comm_graph.hpp"
#include "route_table.hpp"
#include "step_cost.hpp"
#include "topology.hpp"

namespace arcoll::placement {

struct CostReport {
  double time_s = 0;        ///< T(pi), seconds
  double hop_bytes = 0;     ///< bytes x network links
  int max_congestion = 0;   ///< messages of one step on one network link (0 when no network traffic)
  double inter_socket_bytes = 0;  ///< bytes between two sockets of one host (0 without sockets, HOSTS.md)
  std::vector<double> step_time_s;  ///< per step of g.steps: max over its messages, seconds
};

/** Full evaluation. Precondition: map.size() == g.nranks, entries in [0, hosts). */
CostReport evaluate(const CommGraph &g, const Topology &topo, const Mapping &map);

/** T(pi) only, seconds. */
double estimated_time(const CommGraph &g, const Topology &topo, const Mapping &map);

/** Time (seconds) of one arbitrary set of messages evaluated as one step
 *  (used for the barrier advice: two steps merged). */
double set_time(const std::vector<Message> &msgs, const Topology &topo, const Mapping &map);

/**
 * Incremental evaluator for local search: keeps the per-step times and, per
 * rank, the list of steps it takes part in, so that moving one or two ranks
 * re-evaluates only the steps of those ranks (exactly, with the formula
 * above; other steps keep their cached time; the routes of small machines
 * come from a RouteTable, route_table.hpp). Every apply() is exact: the sum
 * is the same (up to rounding of the running sum) as evaluate() on the new
 * mapping. Steps with the same messages (src, dst, bytes, in any order: an
 * iterative program repeats its pattern) are kept once, weighted by their
 * count: the suite's 32-rank traces (placement/SUITE.md) have 1-18 distinct
 * steps of 4-41 (ring, halos: 1) and ScaLAPACK LU 2251 of 6728 levels.
 *
 * Two ways to re-evaluate a step:
 *  - small steps (fewer than `per_link_min_msgs` messages), and every step
 *    under Contention::Fluid: the whole step again, O(messages x route length);
 *  - large steps under Contention::Count / Volume: per-link state kept across
 *    calls. The step time is rewritten as a maximum over links,
 *
 *        max_m [L_m + S_m * max_{k in route(m)} n_k / B_m]
 *      = max_k max_{m through k} (L_m + S_m * n_k / B_m)         (Count)
 *        max_m [L_m + max_{k in route(m)} V_k / B_k]
 *      = max_k (V_k / B_k + max_{m through k} L_m)               (Volume)
 *
 *    (n_k messages, V_k bytes on link k; exact in floating point, since
 *    correctly rounded + * / are monotone). Per link the step keeps n_k,
 *    V_k and the multiset of the distinct (L_m, S_m, B_m) of its messages
 *    (few: routes of one length and bottleneck share them), and a max
 *    segment tree over the links' values. Moving a rank re-routes only its
 *    own messages: O(its messages x route length x (keys per link +
 *    log links)) instead of O(messages of the step x route length); at 100k
 *    ranks on 4096 hosts that is ~10^3 times fewer operations per candidate.
 *    Memory: (ints + doubles + a small vector) per link per large step,
 *    bounded by `per_link_budget` link-steps, ~60 bytes each (default 4M:
 *    ~250 MB; 100k ranks on 4096 hosts need 0.3M; larger steps beyond the budget
 *    use the whole-step path).
 *
 * The memo of whole steps: a step t of rank r but not of the other rank of the
 * move depends on r's host only (the others stay), so its time with r on host h
 * is kept per (r, t, h) until a rank of t settles on another host (an apply()
 * kept: the next apply() or reset() settles it; undo() changes nothing). A
 * search that tries r on every host in turn (refine.cpp: r swapped with every
 * other rank) computes each (r, t, h) once per change of t. Steps of both
 * ranks of a swap are computed. Answers are the computed values themselves, so
 * totals are bit-identical with and without the memo (memo_budget 0 = off).
 * Memory: 8 bytes x H per (rank, step of the rank) plus a stamp; off when that
 * exceeds `memo_budget` entries (default 8M: 64 MB). On the placement suite's
 * ScaLAPACK LU trace (32 ranks on 16 hosts, ~660 distinct steps per rank) it
 * answers half of the refinement's step evaluations, 28 % of those left once
 * refine() skips repeated swaps (placement/EXPERIMENTS.md "Mapping time").
 */
class CostModel {
 public:
  CostModel(const CommGraph &g, const Topology &topo, size_t per_link_min_msgs = 256,
            size_t per_link_budget = size_t(1) << 22, size_t memo_budget = size_t(1) << 23);
  CostModel(const CostModel &) = delete;  // its scratch points into its own route table
  CostModel &operator=(const CostModel &) = delete;
  /** T(pi) of `map`, and remembers `map` and its per-step times. */
  double reset(const Mapping &map);
  double total() const { return total_; }
  const Mapping &mapping() const { return map_; }
  /** Cost after setting the hosts of ranks a and b to ha, hb (b may be -1);
   *  the state is updated; call undo() to go back to the previous state. */
  double apply(int a, int ha, int b, int hb);
  void undo();
  /** Time (seconds) of one step under the current mapping. */
  double step_time(size_t t) const;
  /** Number of steps evaluated per link (the rest whole-step). */
  size_t per_link_steps() const { return pl_.size(); }
  /**
   * Threads (OpenMP) that evaluate the steps of one apply() when it re-evaluates at least
   * kParallelMinSteps whole steps (n <= 0: OpenMP's default, OMP_NUM_THREADS or the cores; 1
   * without OpenMP). Each step's time is computed alone and the times are added to the total in
   * the same order whatever the threads: totals, and so the searches built on them, are
   * bit-identical for every thread count (test/placement/test_cost_threads.cpp).
   */
  void set_threads(int n);
  int threads() const { return threads_; }
  /** Whole steps an apply() must re-evaluate to use the threads (below, one step costs ~0.1-1 us:
   *  less than waking them). */
  static constexpr int kParallelMinSteps = 64;
  /** Whole-step evaluations answered from the memo / computed (since construction). */
  long memo_hits() const { return memo_hits_; }
  long step_evaluations() const { return step_evals_; }

 private:
  /** (L, S, B) of the messages through one link of one step, with their count. */
  struct LinkKey {
    double lat;
    uint64_t bytes;
    double bw;
    int count;
  };
  /** Per-link state of one large step (see the class comment). */
  struct PerLinkStep {
    std::vector<int> load;                   // n_k
    std::vector<double> vload;               // V_k (Volume only)
    std::vector<std::vector<LinkKey>> keys;  // per link
    std::vector<double> seg;                 // max segment tree over links, leaves at [S, 2S)
    size_t S = 1;
  };
  void pl_build(size_t i);
  void pl_touch(size_t i, const Message &m, int hs, int hd, int sign);
  double pl_link_value(const PerLinkStep &p, int k) const;
  /** Re-routes the messages of ranks a, b (b may be -1) of the per-link steps from
   *  their hosts in old_map_of(...) to map_, and refreshes those steps' times. */
  void pl_move(int a, int oha, int b, int ohb, bool record);

  const CommGraph &g_;
  const Topology &topo_;
  Mapping map_;
  std::vector<int> rep_;        // per step: the first step with the same messages
  std::vector<double> weight_;  // per representative step: how many steps it stands for
  std::vector<int> unique_;     // the representative steps, increasing
  std::vector<double> step_;    // per representative step: its time
  std::vector<std::vector<int>> steps_of_rank_;  // whole-step steps only
  double total_ = 0;
  RouteTable routes_;       // host-pair routes (small machines; route_table.hpp)
  StepScratch scratch_;     // of step_cost()
  std::vector<int> rbuf_;   // scratch: one route (per-link steps)
  // per-link steps
  std::vector<int> pl_of_step_;                  // index into pl_, or -1
  std::vector<size_t> pl_step_;                  // step of pl_[i]
  std::vector<PerLinkStep> pl_;
  std::vector<std::vector<std::pair<int, int>>> pl_msgs_of_rank_;  // (pl index, message index), sorted
  std::vector<std::pair<int, int>> dirty_;       // (pl index, link)
  std::vector<int> touched_;                     // pl indices touched by one move
  std::vector<char> touched_mark_;
  // The memo of whole-step times (see the class comment): per rank r and j-th step t of
  // steps_of_rank_[r], the time of t with r on host h and its other ranks where they are,
  // at memo_[r][j * H + h]; valid while memo_stamp_[r][j] == version_[t] (bumped when a rank
  // of t settles on another host). Empty when over memo_budget.
  std::vector<std::vector<double>> memo_;
  std::vector<std::vector<uint32_t>> memo_stamp_;
  std::vector<uint32_t> version_;  // per step
  /** One whole step of an apply(): step t, of rank r only (its j-th step: the memo) or of both
   *  moved ranks (r = -1: computed). */
  struct Job {
    int t, r, j;
  };
  std::vector<Job> jobs_;
  std::vector<double> job_time_;          // per job: the step's new time
  int threads_ = 1;
  std::vector<StepScratch> scratches_;    // per thread (evaluate_jobs)
  void evaluate_jobs();                   // job_time_ of every job, on threads_ threads
  double memo_step(int r, size_t j, int t, StepScratch &s, long &hits, long &evals);
  double compute(int t, StepScratch &s, long &evals);  // step_cost() of step t under map_, counted
  void settle(int r);
  void settle_kept();     // settles the ranks of the last apply() if it was kept
  long memo_hits_ = 0, step_evals_ = 0;
  // undo information
  int ua_ = -1, uha_ = -1, ub_ = -1, uhb_ = -1;
  double utotal_ = 0;
  std::vector<std::pair<int, double>> usteps_;
};

}  // namespace arcoll::placement

#endif
