/**
 * @file papi_counters.hpp
 * @brief Optional PAPI counters of the profiler (compiled with PAPI only
 *        when ARCOLL_HAVE_PAPI is defined; otherwise start() always fails).
 */
#ifndef ARCOLL_PAPI_COUNTERS_HPP
#define ARCOLL_PAPI_COUNTERS_HPP

#include <string>
#include <vector>

namespace arcoll::profiler {

class PapiCounters {
 public:
  /** Starts counting the comma-separated PAPI event names (at most `max`).
   *  On failure returns false and sets `err` to "EVENT: reason". */
  bool start(const std::string &events, int max, std::string &err);
  /** Current values (raw counts since start()); n() values are written. */
  bool read(long long *values);
  void stop();
  int n() const { return int(names_.size()); }
  const std::vector<std::string> &names() const { return names_; }

 private:
  std::vector<std::string> names_;
  int eventset_ = -1;
  bool running_ = false;
};

}  // namespace arcoll::profiler
#endif
