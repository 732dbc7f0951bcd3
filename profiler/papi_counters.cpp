#include "papi_counters.hpp"

#ifdef ARCOLL_HAVE_PAPI
#include <papi.h>
#endif

namespace arcoll::profiler {

#ifdef ARCOLL_HAVE_PAPI
bool PapiCounters::start(const std::string &events, int max, std::string &err) {
  names_.clear();
  std::vector<std::string> want;
  std::string cur;
  for (char c : events + ",") {
    if (c == ',') {
      if (!cur.empty()) want.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  if (want.empty()) {
    err = "no event names given";
    return false;
  }
  if (int(want.size()) > max) {
    err = std::to_string(want.size()) + " events given, at most " + std::to_string(max) + " supported";
    return false;
  }
  if (!PAPI_is_initialized()) {
    int v = PAPI_library_init(PAPI_VER_CURRENT);
    if (v != PAPI_VER_CURRENT) {
      err = std::string("PAPI_library_init: ") + (v < 0 ? PAPI_strerror(v) : "version mismatch");
      return false;
    }
  }
  int es = PAPI_NULL;
  int rc = PAPI_create_eventset(&es);
  if (rc != PAPI_OK) {
    err = std::string("PAPI_create_eventset: ") + PAPI_strerror(rc);
    return false;
  }
  for (auto &w : want) {
    rc = PAPI_add_named_event(es, w.c_str());
    if (rc != PAPI_OK) {
      err = w + ": " + PAPI_strerror(rc);
      PAPI_cleanup_eventset(es);
      PAPI_destroy_eventset(&es);
      return false;
    }
  }
  rc = PAPI_start(es);
  if (rc != PAPI_OK) {
    err = std::string("PAPI_start: ") + PAPI_strerror(rc);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return false;
  }
  eventset_ = es;
  running_ = true;
  names_ = want;
  return true;
}

bool PapiCounters::read(long long *values) { return running_ && PAPI_read(eventset_, values) == PAPI_OK; }

void PapiCounters::stop() {
  if (!running_) return;
  std::vector<long long> v(names_.size());
  PAPI_stop(eventset_, v.data());
  PAPI_cleanup_eventset(eventset_);
  PAPI_destroy_eventset(&eventset_);
  running_ = false;
}
#else
bool PapiCounters::start(const std::string &, int, std::string &err) {
  err = "arcoll was built without PAPI";
  return false;
}
bool PapiCounters::read(long long *) { return false; }
void PapiCounters::stop() {}
#endif

}  // namespace arcoll::profiler
