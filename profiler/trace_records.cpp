// The records of a rank section (format: trace_format.h): one case per
// record type, each checked against its length and the section's state
// (class: trace_parser.hpp).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "trace_parser.hpp"

namespace arcoll::trace::detail {

const char *record_name(uint32_t t) {
  switch (t) {
    case RT_RANK_BEGIN: return "RT_RANK_BEGIN";
    case RT_CALLSITE: return "RT_CALLSITE";
    case RT_COMM: return "RT_COMM";
    case RT_COLL: return "RT_COLL";
    case RT_CCS: return "RT_CCS";
    case RT_COUNTER_NAMES: return "RT_COUNTER_NAMES";
    case RT_COUNTERS: return "RT_COUNTERS";
    case RT_CLOCK: return "RT_CLOCK";
    case RT_RANK_END: return "RT_RANK_END";
    case RT_BLOCK: return "RT_BLOCK";
    case RT_TRACE_END: return "RT_TRACE_END";
    case RT_RECV: return "RT_RECV";
    default: return "unknown record";
  }
}

void Parser::close_section(bool complete) {
  if (cur_ < 0) return;
  RankInfo &ri = t_.ranks[cur_];
  ri.complete = complete;
  ri.clock = clock_seen_ ? clock_ : ClockModel{};
  ri.ready = clock_seen_ ? ri.clock.to_global(ri.clock.t_ready) : 0.0;
  for (std::size_t i = first_coll_; i < t_.colls.size(); i++) {
    t_.colls[i].t_entry = ri.clock.to_global(raw_entry_[i - first_coll_]);
    t_.colls[i].t_exit = ri.clock.to_global(raw_exit_[i - first_coll_]);
  }
  cur_ = -1;
}

void Parser::record(uint32_t type, uint64_t roff, uint64_t p, uint32_t len, int brank) {
  auto need = [&](uint64_t n, bool exact) {
    if (exact ? len != n : len < n)
      fail(roff, std::string(record_name(type)) + " has a payload of " + std::to_string(len) + " bytes, expected " +
                     (exact ? "" : "at least ") + std::to_string(n));
  };
  if (type == RT_BLOCK || type == RT_TRACE_END)
    fail(roff, std::string(record_name(type)) + " inside a record block");
  if (type != RT_RANK_BEGIN && cur_ < 0) {
    if ((type < RT_RANK_BEGIN || type > RT_RANK_END) && type != RT_RECV) return;  // unknown, outside a section: skip
    fail(roff, std::string(record_name(type)) + " outside a rank section (no RT_RANK_BEGIN before it)");
  }
  if (type != RT_RANK_BEGIN && cur_ != brank)
    fail(roff, std::string(record_name(type)) + " in a block of rank " + std::to_string(brank) +
                   " continues the section of rank " + std::to_string(cur_));
  switch (type) {
    case RT_RANK_BEGIN: {
      need(sizeof(arcoll_rec_rank_begin), false);
      auto rb = get<arcoll_rec_rank_begin>(p);
      if (rb.rank != brank)
        fail(roff, "RT_RANK_BEGIN of rank " + std::to_string(rb.rank) + " in a block of rank " + std::to_string(brank));
      if (seen_[rb.rank]) fail(roff, "second section for rank " + std::to_string(rb.rank));
      if (rb.rank <= last_)
        fail(roff, "section of rank " + std::to_string(rb.rank) + " after rank " + std::to_string(last_) +
                       " (sections must be in world-rank order)");
      if (sizeof rb + uint64_t(rb.host_len) != len)
        fail(roff, "RT_RANK_BEGIN host name length field " + std::to_string(rb.host_len) +
                       " does not match the record length " + std::to_string(len));
      close_section(false);  // previous section without RT_RANK_END: incomplete
      cur_ = last_ = rb.rank;
      seen_[cur_] = true;
      t_.ranks[cur_].pid = rb.pid;
      t_.ranks[cur_].host.assign(reinterpret_cast<const char *>(d_.data() + p + sizeof rb), rb.host_len);
      callsites_.clear();
      first_coll_ = t_.colls.size();
      ncoll_ = nccs_ = 0;
      raw_entry_.clear();
      raw_exit_.clear();
      clock_seen_ = false;
      clock_ = ClockModel{};
      break;
    }
    case RT_CALLSITE: {
      need(4, false);
      uint32_t id = get<uint32_t>(p);
      if (id != callsites_.size())
        fail(roff, "call-site id " + std::to_string(id) + " out of sequence (expected " +
                       std::to_string(callsites_.size()) + ")");
      callsites_.emplace_back(reinterpret_cast<const char *>(d_.data() + p + 4), len - 4);
      break;
    }
    case RT_COMM: {
      need(16, false);
      uint64_t id = get<uint64_t>(p);
      uint32_t size = get<uint32_t>(p + 8);
      if (16 + uint64_t(size) * 4 != len)  // checked before the member list is allocated
        fail(roff, "RT_COMM member count field " + std::to_string(size) + " needs " +
                       std::to_string(16 + uint64_t(size) * 4) + " payload bytes, the record has " +
                       std::to_string(len));
      std::vector<int> wr(size);
      for (uint32_t i = 0; i < size; i++) {
        int32_t w = get<int32_t>(p + 16 + 4 * uint64_t(i));
        if (w < -1 || w >= t_.nranks)
          fail(roff, "RT_COMM world rank " + std::to_string(w) + " out of range [-1, " +
                         std::to_string(t_.nranks) + ")");
        wr[i] = w;
      }
      auto it = comms_.find(id);
      if (it == comms_.end())
        comms_.emplace(id, std::move(wr));
      else if (it->second != wr)
        fail(roff, "communicator " + std::to_string(id) + " recorded with two different rank lists");
      break;
    }
    case RT_COLL: {
      need(sizeof(arcoll_rec_coll), false);
      auto c = get<arcoll_rec_coll>(p);
      if (c.op >= OP_COUNT_) fail(roff, "unknown collective operation " + std::to_string(c.op));
      if (c.callsite >= callsites_.size())
        fail(roff, "call-site id " + std::to_string(c.callsite) + " not defined by an earlier RT_CALLSITE");
      if (!std::isfinite(c.t_entry) || !std::isfinite(c.t_exit)) fail(roff, "non-finite time in RT_COLL");
      CollEvent e;
      e.rank = cur_;
      e.comm_id = c.comm_id;
      e.seq = c.seq;
      e.bytes = c.bytes;
      e.step = c.step;
      e.t_entry = e.t_exit = 0;
      e.callsite = callsites_[c.callsite];
      e.op = c.op;
      e.flags = c.flags;
      e.root = c.root;
      raw_entry_.push_back(c.t_entry);
      raw_exit_.push_back(c.t_exit);
      t_.colls.push_back(std::move(e));
      ncoll_++;
      break;
    }
    case RT_CCS: {
      need(sizeof(arcoll_rec_ccs), false);
      auto c = get<arcoll_rec_ccs>(p);
      if (c.src != cur_)
        fail(roff, "RT_CCS source rank " + std::to_string(c.src) + " in the section of rank " + std::to_string(cur_));
      if (c.dst < 0 || c.dst >= t_.nranks)
        fail(roff, "RT_CCS destination rank " + std::to_string(c.dst) + " out of range [0, " +
                       std::to_string(t_.nranks) + ")");
      if (ccs_rank_ != cur_ || ccs_step_ != c.step) ccs_rank_ = cur_, ccs_step_ = c.step, ccs_order_ = 0;
      t_.ccs.push_back(CcsEntry{c.step, c.src, c.dst, c.bytes, c.count, std::min(c.blocking, c.count), ccs_order_++});
      nccs_++;
      break;
    }
    case RT_RECV: {
      need(sizeof(arcoll_rec_ccs), false);
      auto c = get<arcoll_rec_ccs>(p);
      if (c.dst != cur_)
        fail(roff, "RT_RECV destination rank " + std::to_string(c.dst) + " in the section of rank " +
                       std::to_string(cur_));
      if (c.src < 0 || c.src >= t_.nranks)
        fail(roff, "RT_RECV source rank " + std::to_string(c.src) + " out of range [0, " +
                       std::to_string(t_.nranks) + ")");
      t_.recvs.push_back(CcsEntry{c.step, c.src, c.dst, c.bytes, c.count, std::min(c.blocking, c.count)});
      break;
    }
    case RT_COUNTER_NAMES: {
      need(4, false);
      uint32_t n = get<uint32_t>(p);
      if (uint64_t(n) > len - 4)  // every name takes at least its NUL
        fail(roff, "RT_COUNTER_NAMES count field " + std::to_string(n) + " but the record holds only " +
                       std::to_string(len - 4) + " bytes of names");
      std::vector<std::string> names;
      uint64_t q = p + 4;
      for (uint32_t i = 0; i < n; i++) {
        const void *z = std::memchr(d_.data() + q, 0, p + len - q);
        if (!z) fail(roff, "RT_COUNTER_NAMES: name " + std::to_string(i) + " is not NUL-terminated");
        const char *s = reinterpret_cast<const char *>(d_.data() + q);
        names.emplace_back(s);
        q += names.back().size() + 1;
      }
      if (names_seen_ && names != counter_names_) fail(roff, "RT_COUNTER_NAMES differ between ranks");
      counter_names_ = std::move(names);
      names_seen_ = true;
      break;
    }
    case RT_COUNTERS: {
      if (!names_seen_) fail(roff, "RT_COUNTERS before RT_COUNTER_NAMES");
      need(8 + 8 * uint64_t(counter_names_.size()), true);
      uint64_t idx = get<uint64_t>(p);
      if (idx >= ncoll_)
        fail(roff, "RT_COUNTERS for collective #" + std::to_string(idx) + " but this section has " +
                       std::to_string(ncoll_) + " RT_COLL records so far");
      auto &v = t_.colls[first_coll_ + idx].counters;
      v.resize(counter_names_.size());
      for (std::size_t i = 0; i < v.size(); i++) v[i] = get<int64_t>(p + 8 + 8 * i);
      break;
    }
    case RT_CLOCK: {
      need(sizeof(arcoll_rec_clock), false);
      auto c = get<arcoll_rec_clock>(p);
      for (double x : {c.t_init, c.off_init, c.t_fini, c.off_fini, c.rtt_init, c.rtt_fini, c.cost_init, c.cost_fini,
                       c.t_ready})
        if (!std::isfinite(x)) fail(roff, "non-finite value in RT_CLOCK");
      if (c.t_fini < c.t_init) fail(roff, "RT_CLOCK: t_fini before t_init");
      clock_ = ClockModel{c.t_init,   c.off_init,  c.t_fini,   c.off_fini, c.rtt_init,
                          c.rtt_fini, c.cost_init, c.cost_fini, c.t_ready};
      clock_seen_ = true;
      break;
    }
    case RT_RANK_END: {
      need(16, false);
      uint64_t nc = get<uint64_t>(p), ns = get<uint64_t>(p + 8);
      if (nc != ncoll_ || ns != nccs_)
        fail(roff, "RT_RANK_END of rank " + std::to_string(cur_) + " announces " + std::to_string(nc) +
                       " RT_COLL and " + std::to_string(ns) + " RT_CCS records, the section has " +
                       std::to_string(ncoll_) + " and " + std::to_string(nccs_));
      close_section(true);
      break;
    }
    default:
      break;  // unknown type: skipped (forward compatible)
  }
}

}  // namespace arcoll::trace::detail
