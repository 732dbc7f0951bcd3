// Per-rank caused waiting time from the profiler's analysis (wait_cause.hpp).
#include "wait_cause.hpp"

#include "cause_analysis.hpp"

namespace arcoll::report {

WaitCause caused_waits(const arcoll::trace::Trace &t) {
  WaitCause w;
  w.caused_s.assign(size_t(t.nranks), 0.0);
  w.caused_long_term_s.assign(size_t(t.nranks), 0.0);
  w.cause_calls.assign(size_t(t.nranks), 0);
  const arcoll::trace::CauseReport c = arcoll::trace::analyse_causes(t);
  for (const auto &s : c.ranking) {
    if (s.rank < 0 || s.rank >= t.nranks) continue;
    w.caused_s[size_t(s.rank)] += s.caused;
    w.caused_long_term_s[size_t(s.rank)] += s.caused_long_term;
    w.cause_calls[size_t(s.rank)] += s.cause_calls;
  }
  w.instances = c.instances;
  w.first_calls = c.first_calls.size();
  w.total_wait_s = c.total_wait;
  w.caused_wait_s = c.caused_wait;
  w.propagated_wait_s = c.propagated_wait;
  return w;
}

}  // namespace arcoll::report
