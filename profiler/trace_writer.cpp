#include "trace_writer.hpp"

#include <cerrno>
#include <cstring>

namespace arcoll::trace {

RecordWriter::RecordWriter(std::size_t buffer_bytes) : buf_(buffer_bytes < 64 ? 64 : buffer_bytes) {}

RecordWriter::~RecordWriter() { close(); }

bool RecordWriter::open(const std::string &path) {
  close();
  path_ = path;
  failed_ = false;
  error_.clear();
  used_ = 0;
  appended_ = record_end_ = committed_ = 0;
  f_ = std::fopen(path.c_str(), "wb");
  if (!f_) {
    failed_ = true;
    error_ = std::strerror(errno);
    return false;
  }
  return true;
}

bool RecordWriter::flush() {
  if (failed_ || !f_) return false;
  if (used_ && std::fwrite(buf_.data(), 1, used_, f_) != used_) {
    failed_ = true;
    error_ = std::strerror(errno);
  }
  used_ = 0;
  if (!failed_ && std::fflush(f_) != 0) {
    failed_ = true;
    error_ = std::strerror(errno);
  }
  if (!failed_) committed_ = record_end_;
  return !failed_;
}

bool RecordWriter::put(const void *p, std::size_t n) {
  const unsigned char *c = static_cast<const unsigned char *>(p);
  while (n > 0) {
    if (used_ == buf_.size() && !flush()) return false;
    std::size_t k = buf_.size() - used_;
    if (k > n) k = n;
    std::memcpy(buf_.data() + used_, c, k);
    used_ += k;
    appended_ += k;
    c += k;
    n -= k;
  }
  return true;
}

bool RecordWriter::record2(uint32_t type, const void *a, uint32_t alen, const void *b, uint32_t blen) {
  if (failed_ || !f_) return false;
  arcoll_record_header h{type, alen + blen};
  bool ok = put(&h, sizeof h) && (alen == 0 || put(a, alen)) && (blen == 0 || put(b, blen));
  if (ok) record_end_ = appended_;
  return ok;
}

bool RecordWriter::record(uint32_t type, const void *payload, uint32_t len) {
  return record2(type, payload, len, nullptr, 0);
}

bool RecordWriter::close() {
  if (!f_) return !failed_;
  flush();
  if (std::fclose(f_) != 0 && !failed_) {
    failed_ = true;
    error_ = std::strerror(errno);
  }
  f_ = nullptr;
  return !failed_;
}

}  // namespace arcoll::trace
