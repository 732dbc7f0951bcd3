// Seed-001 estimated communication time. See cost.hpp.
#include "cost.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <unordered_map>

#ifdef _OPENMP
#include <omp.h>
#endif


namespace arcoll::placement {


CostReport evaluate(const CommGraph &g, const Topology &topo, const Mapping &map) {
  CostReport r;
  StepScratch scratch(topo);
  r.step_time_s.reserve(g.steps.size());
  for (auto &s : g.steps) {
    double t = step_cost(s.msgs, topo, map, scratch, &r);
    r.step_time_s.push_back(t);
    r.time_s += t;
  }
  return r;
}

double estimated_time(const CommGraph &g, const Topology &topo, const Mapping &map) {
  return evaluate(g, topo, map).time_s;
}

double set_time(const std::vector<Message> &msgs, const Topology &topo, const Mapping &map) {
  StepScratch scratch(topo);
  return step_cost(msgs, topo, map, scratch, nullptr);
}

namespace {

// Order-independent hash of a step's messages (sum of mixed per-message hashes).
uint64_t step_hash(const std::vector<Message> &msgs) {
  uint64_t h = msgs.size();
  for (auto &m : msgs) {
    uint64_t x = (static_cast<uint64_t>(static_cast<uint32_t>(m.src)) << 32 | static_cast<uint32_t>(m.dst)) ^
                 (m.bytes * 0x9e3779b97f4a7c15ULL);
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL; x ^= x >> 27; x *= 0x94d049bb133111ebULL; x ^= x >> 31;
    h += x;
  }
  return h;
}

std::vector<Message> sorted_msgs(const std::vector<Message> &msgs) {
  std::vector<Message> v = msgs;
  std::sort(v.begin(), v.end(), [](const Message &a, const Message &b) {
    return std::tie(a.src, a.dst, a.bytes) < std::tie(b.src, b.dst, b.bytes);
  });
  return v;
}

bool same_order(const std::vector<Message> &a, const std::vector<Message> &b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].src != b[i].src || a[i].dst != b[i].dst || a[i].bytes != b[i].bytes) return false;
  return true;
}

// The same messages, in any order (the trace's order first: no copy when it matches).
bool same_msgs(const std::vector<Message> &a, const std::vector<Message> &b) {
  if (a.size() != b.size()) return false;
  return same_order(a, b) || same_order(sorted_msgs(a), sorted_msgs(b));
}

}  // namespace

CostModel::CostModel(const CommGraph &g, const Topology &topo, size_t per_link_min_msgs, size_t per_link_budget,
                     size_t memo_budget)
    : g_(g), topo_(topo), rep_(g.steps.size()), weight_(g.steps.size(), 0.0), steps_of_rank_(g.nranks),
      routes_(topo), scratch_(topo, &routes_), pl_of_step_(g.steps.size(), -1), pl_msgs_of_rank_(g.nranks) {
  // Identical steps (the same messages: an iterative program repeats its pattern) are
  // evaluated once, weighted by their count.
  std::unordered_map<uint64_t, std::vector<int>> by_hash;
  for (size_t t = 0; t < g.steps.size(); ++t) {
    auto &cands = by_hash[step_hash(g.steps[t].msgs)];
    int r = static_cast<int>(t);
    for (int c : cands)
      if (same_msgs(g.steps[c].msgs, g.steps[t].msgs)) { r = c; break; }
    if (r == static_cast<int>(t)) {
      cands.push_back(r);
      unique_.push_back(r);
    }
    rep_[t] = r;
    weight_[r] += 1.0;
  }
  const size_t L = topo.links.size();
  size_t used = 0;
  for (int t : unique_) {
    const auto &msgs = g.steps[t].msgs;
    const bool per_link_model = topo.contention == Contention::Count || topo.contention == Contention::Volume;
    if (per_link_model && !msgs.empty() && msgs.size() >= per_link_min_msgs && used + L <= per_link_budget) {
      used += L;
      const int i = static_cast<int>(pl_.size());
      pl_of_step_[t] = i;
      pl_step_.push_back(t);
      pl_.emplace_back();
      for (size_t k = 0; k < msgs.size(); ++k) {
        const Message &m = msgs[k];
        pl_msgs_of_rank_[m.src].emplace_back(i, static_cast<int>(k));
        if (m.dst != m.src) pl_msgs_of_rank_[m.dst].emplace_back(i, static_cast<int>(k));
      }
      continue;
    }
    for (auto &m : msgs) {
      for (int r : {m.src, m.dst}) {
        auto &v = steps_of_rank_[r];
        if (v.empty() || v.back() != t) v.push_back(t);
      }
    }
  }
  touched_mark_.assign(pl_.size(), 0);
  const size_t H = topo.hosts.size();
  size_t entries = 0;
  for (auto &v : steps_of_rank_) entries += v.size() * H;
  if (entries > 0 && entries <= memo_budget) {
    memo_.resize(g.nranks);
    memo_stamp_.resize(g.nranks);
    for (int r = 0; r < g.nranks; ++r) {
      memo_[r].assign(steps_of_rank_[r].size() * H, 0.0);
      memo_stamp_[r].assign(steps_of_rank_[r].size(), 0);
    }
    version_.assign(g.steps.size(), 1);
  }
}

double CostModel::memo_step(int r, size_t j, int t, StepScratch &s, long &hits, long &evals) {
  if (memo_.empty()) return compute(t, s, evals);
  const size_t H = topo_.hosts.size();
  double *row = memo_[r].data() + j * H;
  if (memo_stamp_[r][j] != version_[t]) {
    std::fill(row, row + H, std::numeric_limits<double>::quiet_NaN());
    memo_stamp_[r][j] = version_[t];
  }
  double &v = row[map_[r]];
  if (!std::isnan(v)) {
    ++hits;
    return v;
  }
  return v = compute(t, s, evals);
}

void CostModel::settle(int r) {
  if (version_.empty()) return;
  for (int t : steps_of_rank_[r]) ++version_[t];
}

void CostModel::settle_kept() {
  if (ua_ < 0) return;  // the last apply() was undone (or none)
  settle(ua_);
  if (ub_ >= 0) settle(ub_);
}

double CostModel::compute(int t, StepScratch &s, long &evals) {
  ++evals;
  return step_cost(g_.steps[t].msgs, topo_, map_, s, nullptr);
}

double CostModel::step_time(size_t t) const { return step_[rep_[t]]; }

double CostModel::pl_link_value(const PerLinkStep &p, int k) const {
  double v = 0;
  if (topo_.contention == Contention::Volume) {
    if (p.keys[k].empty()) return 0;
    double lat = 0;
    for (auto &key : p.keys[k]) lat = std::max(lat, key.lat);
    return lat + p.vload[k] / topo_.links[k].bandwidth_Bps;
  }
  // The same expression as step_cost(): L + S * coll / B.
  for (auto &key : p.keys[k]) v = std::max(v, key.lat + static_cast<double>(key.bytes) * p.load[k] / key.bw);
  return v;
}

void CostModel::pl_touch(size_t i, const Message &m, int hs, int hd, int sign) {
  PerLinkStep &p = pl_[i];
  if (rbuf_.size() < static_cast<size_t>(topo_.max_route())) rbuf_.resize(topo_.max_route());
  int *r = rbuf_.data();
  const int n = topo_.route_into(hs, hd, r);
  const Topology::RouteLB lb = topo_.route_lb(r, n);  // as step_cost() has them
  const double lat = lb.latency_s, bw = lb.bandwidth_Bps;
  for (int k = 0; k < n; ++k) {
    const int l = r[k];
    p.load[l] += sign;
    if (!p.vload.empty()) p.vload[l] += sign * static_cast<double>(m.bytes);
    auto &keys = p.keys[l];
    auto it = std::find_if(keys.begin(), keys.end(),
                           [&](const LinkKey &x) { return x.lat == lat && x.bytes == m.bytes && x.bw == bw; });
    if (it == keys.end()) {
      keys.push_back({lat, m.bytes, bw, sign});
    } else if ((it->count += sign) == 0) {
      *it = keys.back();
      keys.pop_back();
    }
    dirty_.emplace_back(static_cast<int>(i), l);
  }
}

void CostModel::pl_build(size_t i) {
  PerLinkStep &p = pl_[i];
  const size_t L = topo_.links.size();
  p.load.assign(L, 0);
  if (topo_.contention == Contention::Volume) p.vload.assign(L, 0.0);
  p.keys.assign(L, {});
  p.S = 1;
  while (p.S < L) p.S <<= 1;
  p.seg.assign(2 * p.S, 0.0);
  dirty_.clear();
  for (auto &m : g_.steps[pl_step_[i]].msgs) pl_touch(i, m, map_[m.src], map_[m.dst], +1);
  dirty_.clear();
  for (size_t k = 0; k < L; ++k) p.seg[p.S + k] = pl_link_value(p, static_cast<int>(k));
  for (size_t x = p.S - 1; x >= 1; --x) p.seg[x] = std::max(p.seg[2 * x], p.seg[2 * x + 1]);
}

void CostModel::pl_move(int a, int oha, int b, int ohb, bool record) {
  auto old_host = [&](int r) { return r == a ? oha : (r == b ? ohb : map_[r]); };
  dirty_.clear();
  touched_.clear();
  auto each = [&](int r, auto &&fn) {
    for (auto &e : pl_msgs_of_rank_[r]) {
      const Message &m = g_.steps[pl_step_[e.first]].msgs[e.second];
      // a message between a and b is on both lists: handle it with a only
      if (r == b && (m.src == a || m.dst == a)) continue;
      fn(e.first, m);
    }
  };
  auto touch = [&](int i, const Message &m) {
    pl_touch(i, m, old_host(m.src), old_host(m.dst), -1);
    pl_touch(i, m, map_[m.src], map_[m.dst], +1);
    if (!touched_mark_[i]) {
      touched_mark_[i] = 1;
      touched_.push_back(i);
    }
  };
  each(a, touch);
  if (b >= 0) each(b, touch);
  for (auto &d : dirty_) {
    PerLinkStep &p = pl_[d.first];
    size_t x = p.S + d.second;
    p.seg[x] = pl_link_value(p, d.second);
    for (x >>= 1; x >= 1; x >>= 1) p.seg[x] = std::max(p.seg[2 * x], p.seg[2 * x + 1]);
  }
  for (int i : touched_) {
    touched_mark_[i] = 0;
    const size_t t = pl_step_[i];
    if (record) usteps_.emplace_back(static_cast<int>(t), step_[t]);
    double nt = pl_[i].seg[1];
    total_ += weight_[t] * (nt - step_[t]);
    step_[t] = nt;
  }
}

double CostModel::reset(const Mapping &map) {
  settle_kept();
  ua_ = -1;
  for (int r = 0; r < g_.nranks; ++r)
    if (map_.size() == map.size() && map_[r] != map[r]) settle(r);
  map_ = map;
  step_.assign(g_.steps.size(), 0);
  total_ = 0;
  for (int t : unique_) {
    if (pl_of_step_[t] >= 0) {
      pl_build(pl_of_step_[t]);
      step_[t] = pl_[pl_of_step_[t]].seg[1];
    } else {
      step_[t] = step_cost(g_.steps[t].msgs, topo_, map_, scratch_, nullptr);
    }
    total_ += weight_[t] * step_[t];
  }
  return total_;
}

double CostModel::apply(int a, int ha, int b, int hb) {
  settle_kept();
  ua_ = a;
  uha_ = map_[a];
  ub_ = b;
  uhb_ = b >= 0 ? map_[b] : -1;
  utotal_ = total_;
  usteps_.clear();
  map_[a] = ha;
  if (b >= 0) map_[b] = hb;
  pl_move(a, uha_, b, uhb_, true);
  // Merge the two sorted step lists so that a step of both is evaluated once. A step of one
  // of the two ranks depends on that rank's host only (the memo); a step of both is computed.
  static const std::vector<int> none;
  const auto &sa = steps_of_rank_[a];
  const auto &sb = b >= 0 ? steps_of_rank_[b] : none;
  jobs_.clear();
  size_t i = 0, j = 0;
  while (i < sa.size() || j < sb.size()) {
    if (j == sb.size() || (i < sa.size() && sa[i] < sb[j])) {
      jobs_.push_back({sa[i], a, static_cast<int>(i)});
      ++i;
    } else if (i == sa.size() || sb[j] < sa[i]) {
      jobs_.push_back({sb[j], b, static_cast<int>(j)});
      ++j;
    } else {
      jobs_.push_back({sa[i], -1, -1});
      ++i;
      ++j;
    }
  }
  evaluate_jobs();
  // The new times into the total in the merged order, whatever the threads did.
  for (size_t k = 0; k < jobs_.size(); ++k) {
    const int t = jobs_[k].t;
    const double nt = job_time_[k];
    usteps_.emplace_back(t, step_[t]);
    total_ += weight_[t] * (nt - step_[t]);
    step_[t] = nt;
  }
  return total_;
}

void CostModel::evaluate_jobs() {
  const int n = static_cast<int>(jobs_.size());
  job_time_.resize(jobs_.size());
  auto one = [this](const Job &job, StepScratch &s, long &hits, long &evals) {
    return job.r < 0 ? compute(job.t, s, evals) : memo_step(job.r, job.j, job.t, s, hits, evals);
  };
#ifdef _OPENMP
  if (threads_ > 1 && n >= kParallelMinSteps) {
    while (static_cast<int>(scratches_.size()) < threads_) scratches_.emplace_back(topo_, &routes_);
    long hits = 0, evals = 0;
    // Each job writes its own memo row and its own job_time_ entry; the map, the routes and the
    // graph are only read.
#pragma omp parallel for num_threads(threads_) schedule(static) reduction(+ : hits, evals)
    for (int k = 0; k < n; ++k) job_time_[k] = one(jobs_[k], scratches_[omp_get_thread_num()], hits, evals);
    memo_hits_ += hits;
    step_evals_ += evals;
    return;
  }
#endif
  for (int k = 0; k < n; ++k) job_time_[k] = one(jobs_[k], scratch_, memo_hits_, step_evals_);
}

void CostModel::set_threads(int n) {
#ifdef _OPENMP
  threads_ = n > 0 ? n : omp_get_max_threads();
#else
  (void)n;
  threads_ = 1;
#endif
}

void CostModel::undo() {
  if (ua_ < 0) return;
  const int ha = map_[ua_], hb = ub_ >= 0 ? map_[ub_] : -1;
  map_[ua_] = uha_;
  if (ub_ >= 0) map_[ub_] = uhb_;
  pl_move(ua_, ha, ub_, hb, false);  // the per-link state back (its step times are restored below)
  for (auto &u : usteps_) step_[u.first] = u.second;
  total_ = utotal_;
  ua_ = -1;
}

}  // namespace arcoll::placement
