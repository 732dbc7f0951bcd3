#include "trace_writer.hpp"

#include <xxhash.h>

#include <cerrno>
#include <cstring>
#include <limits>

namespace arcoll::trace {

uint64_t checksum64(const void *p, std::size_t n) { return XXH3_64bits(p, n); }

arcoll_trace_file_header make_file_header(uint32_t nranks, double created, uint32_t flags) {
  arcoll_trace_file_header h{};
  std::memcpy(h.magic, ARCOLL_TRACE_MAGIC, 8);
  h.version = ARCOLL_TRACE_VERSION;
  h.nranks = nranks;
  h.created = created;
  h.flags = flags;
  h.checksum = checksum64(&h, offsetof(arcoll_trace_file_header, checksum));
  return h;
}

std::string encode_block(uint32_t rank, uint32_t index, const void *records, std::size_t n) {
  std::string out(sizeof(arcoll_record_header) + sizeof(arcoll_block_header) + n, '\0');
  arcoll_record_header rh{RT_BLOCK, uint32_t(sizeof(arcoll_block_header) + n)};
  arcoll_block_header bh{0, rank, index};
  std::memcpy(&out[sizeof rh], &bh, sizeof bh);
  if (n) std::memcpy(&out[sizeof rh + sizeof bh], records, n);
  bh.checksum = checksum64(&out[sizeof rh + 8], sizeof bh - 8 + n);
  std::memcpy(&out[0], &rh, sizeof rh);
  std::memcpy(&out[sizeof rh], &bh.checksum, 8);
  return out;
}

std::string encode_trace_end(uint64_t body_bytes, uint32_t nranks) {
  arcoll_record_header rh{RT_TRACE_END, sizeof(arcoll_rec_trace_end)};
  arcoll_rec_trace_end e{0, body_bytes, nranks, 0};
  e.checksum = checksum64(reinterpret_cast<const char *>(&e) + 8, sizeof e - 8);
  std::string out(reinterpret_cast<const char *>(&rh), sizeof rh);
  out.append(reinterpret_cast<const char *>(&e), sizeof e);
  return out;
}

RecordWriter::RecordWriter(std::size_t buffer_bytes)
    : buf_((buffer_bytes < 256 ? 256 : buffer_bytes)), capacity_(buf_.size()) {}

RecordWriter::~RecordWriter() { close(); }

bool RecordWriter::open(const std::string &path, uint32_t rank) {
  close();
  path_ = path;
  failed_ = false;
  error_.clear();
  used_ = kHead;
  rank_ = rank;
  index_ = 0;
  committed_ = 0;
  if (buf_.size() != capacity_) std::vector<unsigned char>(capacity_).swap(buf_);
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
  if (used_ > kHead) {
    const std::size_t n = used_ - kHead;
    arcoll_record_header rh{RT_BLOCK, uint32_t(sizeof(arcoll_block_header) + n)};
    arcoll_block_header bh{0, rank_, index_};
    std::memcpy(buf_.data() + sizeof rh, &bh, sizeof bh);
    bh.checksum = checksum64(buf_.data() + sizeof rh + 8, sizeof bh - 8 + n);
    std::memcpy(buf_.data(), &rh, sizeof rh);
    std::memcpy(buf_.data() + sizeof rh, &bh.checksum, 8);
    if (std::fwrite(buf_.data(), 1, used_, f_) != used_ || std::fflush(f_) != 0) {
      failed_ = true;
      error_ = std::strerror(errno);
      return false;
    }
    committed_ += used_;
    index_++;
    used_ = kHead;
    if (buf_.size() != capacity_) std::vector<unsigned char>(capacity_).swap(buf_);  // after a large record
  }
  return true;
}

bool RecordWriter::record2(uint32_t type, const void *a, uint32_t alen, const void *b, uint32_t blen) {
  if (failed_ || !f_) return false;
  const uint64_t need = sizeof(arcoll_record_header) + uint64_t(alen) + blen;
  if (need + sizeof(arcoll_block_header) > std::numeric_limits<uint32_t>::max()) {
    failed_ = true;
    error_ = "record of " + std::to_string(need) + " bytes is too large for the trace format";
    return false;
  }
  if (used_ > kHead && used_ + need > buf_.size() && !flush()) return false;
  if (kHead + need > buf_.size()) buf_.resize(kHead + need);  // one record larger than the buffer
  arcoll_record_header h{type, alen + blen};
  unsigned char *d = buf_.data() + used_;
  std::memcpy(d, &h, sizeof h);
  if (alen) std::memcpy(d + sizeof h, a, alen);
  if (blen) std::memcpy(d + sizeof h + alen, b, blen);
  used_ += need;
  return true;
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
