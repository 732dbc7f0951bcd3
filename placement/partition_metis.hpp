/**
 * @file partition_metis.hpp
 * @brief Rank -> host partition with METIS, then a slot-repair pass.
 */
#ifndef ARCOLL_PLACEMENT_PARTITION_METIS_HPP
#define ARCOLL_PLACEMENT_PARTITION_METIS_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "comm_graph.hpp"
#include "cost.hpp"
#include "topology.hpp"

namespace arcoll::placement {

/** The mapping mpiexec makes without a placement: ranks fill the hosts in
 *  hostfile order, each up to its slots. Precondition: enough slots. */
Mapping in_order_mapping(int nranks, const Topology &topo);

/**
 * Partitions the rank graph into topo.hosts.size() parts with
 * METIS_PartGraphKway (edge weight = bytes, scaled into METIS's 32-bit
 * weights; target part weights proportional to the hosts' slots; METIS seed
 * = `seed`), then calls repair_slots(). Part k is host k.
 * Trivial cases without METIS: one host (everything on it), a graph without
 * edges (in-order mapping), more hosts than ranks (METIS is asked for
 * nranks parts only when the parts can be placed, otherwise in-order).
 * Throws std::runtime_error if METIS fails.
 */
Mapping partition_metis(const CommGraph &g, const Topology &topo, int64_t seed);

/**
 * The rank graph of `g` with every edge weighted by what the pair's messages cost on a network
 * route instead of by bytes alone, in bytes: bytes(r, q) + messages(r, q) x L x B, where
 * messages(r, q) counts the messages r and q exchange, both directions (CommGraph::adjmsgs; the cost
 * model charges each its latency: cost.hpp) and L x B is the mean latency-bandwidth product,
 * seconds x bytes/second, of the routes from host 0 to the hosts on other nodes (the bytes a route
 * could carry while one message's latency passes). The graph only (nranks, xadj, adjncy,
 * adjwgt, adjmsgs; no steps); g's weights when every host is on one node. Throws
 * std::invalid_argument when g has no message counts (not built by finish_comm_graph). Why: a latency-bound pattern (ScaLAPACK LU's pivot search within a
 * process column: thousands of small messages) carries little weight in bytes, so METIS cut it;
 * with these weights METIS keeps the process-column pairs on one host (placement/notes/chooser-suite-2026-12-01-to-02.md
 * "METIS on message times").
 */
CommGraph time_weighted_graph(const CommGraph &g, const Topology &topo);

/**
 * METIS_PartGraphKway of one graph (CSR, 0-based, symmetric, no self
 * edges: xadj of nvtxs + 1 offsets, adjncy, adjwgt) into target.size() >= 2
 * parts whose weights approach `target` (fractions summing to 1), 3 %
 * imbalance, METIS seed `seed`. Edge weights are multiplied by `scale` and
 * clamped to >= 1 (METIS's weights are 32-bit: partition_metis() and
 * partition_tree() scale a graph's total to at most 1e8). Returns the part of
 * each vertex. Throws std::runtime_error naming `what` if METIS fails.
 */
std::vector<int> metis_kway(const std::vector<int64_t> &xadj, const std::vector<int> &adjncy,
                            const std::vector<uint64_t> &adjwgt, double scale,
                            const std::vector<double> &target, int64_t seed, const std::string &what);

/** The factor partition_metis() applies to g's edge weights (1, or 1e8 / total bytes when larger). */
double metis_weight_scale(const CommGraph &g);

/**
 * Makes `map` respect the slots: while a host has more ranks than slots, the
 * rank on it with the least traffic to the other ranks of that host (ties:
 * highest rank) moves to the host with free slots that is closest in the
 * tree (fewest hops; ties: most traffic to that host's ranks, then lowest
 * host index), searched in the smallest subtree around the host that has a
 * free slot (so O(overflow x subtree) rather than O(overflow x ranks)).
 * Deterministic. Precondition: total slots >= ranks.
 */
void repair_slots(Mapping &map, const CommGraph &g, const Topology &topo);

/** True if every rank has a valid host and no host exceeds its slots. */
bool respects_slots(const Mapping &map, const Topology &topo);

}  // namespace arcoll::placement

#endif
