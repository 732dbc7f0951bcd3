/**
 * @file cause_analysis.hpp
 * @brief Which rank caused the waiting in each collective call: arrival skew
 *        split into the lateness a rank caused itself and the lateness it
 *        inherited, and the waiting time of the other ranks attributed to it.
 *
 * Units: every time and duration is in seconds on the global (clock-corrected)
 * timeline of the trace reader.
 *
 * Model, per collective instance (comm_id, seq) with members q:
 *  - e_q entry, x_q exit, p_q exit of q's previous MPI call recorded (its
 *    previous collective, or leaving MPI_Init for its first one);
 *  - skew   s_q = e_q - min e;
 *  - gap    g_q = e_q - p_q, the time q spent outside MPI since its previous
 *           call (its computation);
 *  - own    o_q = max(0, g_q - G), G = lower median of the gaps of the
 *           members: how much longer q computed than the others; the part of
 *           the skew q caused itself;
 *  - inherited i_q = s_q - o_q: lateness q brought from the previous call (it
 *           left it late); negative when q left it early (a head start).
 *  - q waits from e_q until the last member arrives or q leaves, whichever
 *    is first: interval [e_q, min(x_q, max e)).
 *  - At time t, the ranks not yet arrived that are inside their own delay
 *    (e_r - o_r <= t < e_r) share the waiting of the ranks waiting at t
 *    equally (caused_r); waiting while no rank is inside its own delay is
 *    not blamed on an own delay (it is inherited, or the collective's own
 *    transfer time).
 *    caused_r is the integral of that share: with one late rank r and
 *    everyone else waiting for it, caused_r = o_r x (number of waiting ranks).
 *
 *  - Waiting while no rank is inside its own delay is shared equally by the
 *    ranks not yet arrived that are inside their inherited interval
 *    [min e, e_r - o_r) (inherited_caused_r): the lateness they brought from
 *    the previous call.  analyse_causes traces it back (below).
 *
 * The first collective of a rank has p_q = the time it left MPI_Init; every
 * instance in which some member makes its first collective call is reported
 * apart (FirstCall) and left out of the ranking: the clock synchronisation
 * at MPI_Init releases ranks at different times.
 */
#ifndef ARCOLL_CAUSE_ANALYSIS_HPP
#define ARCOLL_CAUSE_ANALYSIS_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "trace_reader.hpp"

namespace arcoll::trace {

/** One member of one collective instance (input of analyse_call). */
struct CallMember {
  int rank = -1;          ///< world rank
  double prev_exit = 0;   ///< exit of the rank's previous MPI call, seconds
  bool has_prev = false;  ///< false: prev_exit unknown (gap and own delay taken as 0)
  double entry = 0;       ///< seconds
  double exit = 0;        ///< seconds
};

/** Lateness of one member of one instance (output of analyse_call). */
struct MemberLateness {
  int rank = -1;
  double skew = 0;       ///< entry - earliest entry of the instance
  double gap = 0;        ///< entry - prev_exit (0 when unknown)
  double own = 0;        ///< part of the skew the rank caused: max(0, gap - lower median gap)
  double inherited = 0;  ///< skew - own
  double waited = 0;     ///< the rank's own waiting: min(exit, last entry) - entry, >= 0
  double caused = 0;     ///< waiting of the other members attributed to this rank's own delay
  /// waiting of the other members attributed to this rank's inherited
  /// lateness: while nobody was inside an own delay and this rank had not yet
  /// arrived (its inherited interval [earliest entry, entry - own)), shared
  /// equally by the ranks then inside theirs; seconds
  double inherited_caused = 0;
};

/**
 * Analyses one instance (members in any order, at least one). Returns one
 * MemberLateness per member, in the input order. Sum of caused <= sum of
 * waited. Pure function, no MPI.
 */
std::vector<MemberLateness> analyse_call(const std::vector<CallMember> &members);

/**
 * Every collective event of `t` (t.colls, sorted by rank then entry) as an
 * analyse_call member, same indices: prev_exit is the exit of the rank's
 * previous collective or, for its first one, the time it left MPI_Init
 * (has_prev false when the trace lacks that time).  *first (resized to
 * t.colls.size()) marks each rank's first collective with 1.
 */
std::vector<CallMember> call_members(const Trace &t, std::vector<char> *first);

/** One blocking collective instance of a trace (blocking_instances). */
struct BlockingInstance {
  uint64_t comm_id = 0, seq = 0;
  std::vector<std::size_t> idx;  ///< its events, indices into t.colls, ascending
  double first_entry = 0;        ///< earliest entry of a member, seconds
  bool has_first = false;        ///< some member makes its first collective call in it
};

/**
 * The instances (comm_id, seq) of the blocking collective events of `t`
 * (nonblocking starts left out), in ascending (comm_id, seq) order, with
 * any number of members (one, if the other ranks' events are missing);
 * `first` as call_members gives it.
 */
std::vector<BlockingInstance> blocking_instances(const Trace &t, const std::vector<char> &first);

/** Statistics of one rank at one call site (call-site name + operation). */
struct SiteRankCause {
  std::string callsite;      ///< the rank's call-site name
  int op = 0;                ///< arcoll_coll_op
  int rank = -1;             ///< world rank
  uint64_t calls = 0;        ///< instances the rank took part in from this site
  uint64_t cause_calls = 0;  ///< of them, instances where it caused the most waiting (> 0)
  double caused = 0;         ///< waiting it caused, summed over the calls, seconds
  /// caused + the waiting of later calls traced back to its own delays here
  /// through other ranks' inherited lateness (analyse_causes), seconds
  double caused_long_term = 0;
  double own_median = 0;     ///< median over the calls of its own delay, seconds
  double inherited_median = 0;  ///< median of its inherited lateness, seconds
  double skew_median = 0;    ///< median of its arrival skew, seconds
};

/** The instances that hold some rank's first collective after MPI_Init. */
struct FirstCall {
  uint64_t comm_id = 0, seq = 0;
  int op = 0;
  std::string callsite;     ///< call site of the latest-arriving member
  int members = 0;
  double spread = 0;        ///< max entry - min entry, seconds
  int latest_rank = -1;     ///< the member that arrived last
  double ready_spread = 0;  ///< max - min over members of the time they left MPI_Init, seconds
  double total_wait = 0;    ///< sum of the members' waiting, seconds
};

/** Whole-trace result. */
struct CauseReport {
  /** Every (call site, op, rank) with calls > 0, by caused waiting (descending),
   *  ties by rank; first calls excluded. */
  std::vector<SiteRankCause> ranking;
  std::vector<FirstCall> first_calls;  ///< in (comm_id, seq) order
  uint64_t instances = 0;   ///< blocking collective instances analysed (first calls excluded)
  double total_wait = 0;    ///< sum over them of the members' waiting, seconds
  double caused_wait = 0;   ///< of it, the waiting attributed to some rank's own delay, seconds
  /// of it, waiting attributed to inherited lateness and traced back to own
  /// delays of earlier calls (the long-term part of caused_long_term), seconds
  double propagated_wait = 0;
};

/**
 * Runs analyse_call on every blocking collective instance of `t` seen on at
 * least two ranks (nonblocking starts are only "previous MPI calls" for the
 * gaps). Medians over a (site, rank)'s calls are the lower median.
 *
 * Propagation (Scalasca's long-term delay cost, simplified): instances are
 * taken in order of their earliest entry; each gets its root causes, a
 * distribution over (call site, op, rank) of the waiting in it: the own
 * delays' caused waiting directly, and each member r's inherited_caused
 * spread by the root causes of r's previous collective instance (r left it
 * late because it waited there: the instance's whole distribution stands in
 * for r's own share of it).  An instance keeps its ARCOLL_CAUSE_TOP_K
 * largest root causes (renormalised).  Inherited waiting whose previous
 * instance has no root causes (a first call, a nonblocking previous call,
 * lateness from the collective's own transfer) is not traced.
 */
CauseReport analyse_causes(const Trace &t);

/** Root causes kept per instance for the propagation. */
constexpr int ARCOLL_CAUSE_TOP_K = 16;

/** Lower median of `v` (sorted copy, element (n-1)/2); 0 for an empty vector. */
double lower_median(std::vector<double> v);

}  // namespace arcoll::trace
#endif
