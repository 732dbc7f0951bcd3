/**
 * @file trace_writer.hpp
 * @brief Buffered, bounded-memory writer of arcoll trace records (format:
 *        trace_format.h), and the encoders of the checksummed parts of a
 *        trace file (header, record block, end record). Used by the profiler
 *        for its per-rank part file and for the final trace.
 */
#ifndef ARCOLL_TRACE_WRITER_HPP
#define ARCOLL_TRACE_WRITER_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "trace_format.h"

namespace arcoll::trace {

/** XXH3_64bits (xxHash) of n bytes: the checksum of every checksummed part. */
uint64_t checksum64(const void *p, std::size_t n);

/** The 40-byte file header (version ARCOLL_TRACE_VERSION) with its checksum. */
arcoll_trace_file_header make_file_header(uint32_t nranks, double created, uint32_t flags);
/** One RT_BLOCK record (record header + block header + records) holding the
 *  `n` bytes of whole records at `records`, for block `index` of `rank`. */
std::string encode_block(uint32_t rank, uint32_t index, const void *records, std::size_t n);
/** The RT_TRACE_END record (record header + payload) that ends a trace whose
 *  header and blocks take `body_bytes` bytes. */
std::string encode_trace_end(uint64_t body_bytes, uint32_t nranks);

/** Appends records to a file in checksummed RT_BLOCKs of at most the buffer
 *  size (default 1 MiB; a single larger record gets a block of its own):
 *  memory stays bounded whatever the length of the run. Not thread-safe. */
class RecordWriter {
 public:
  explicit RecordWriter(std::size_t buffer_bytes = std::size_t(1) << 20);
  ~RecordWriter();
  RecordWriter(const RecordWriter &) = delete;
  RecordWriter &operator=(const RecordWriter &) = delete;

  /** Creates/truncates `path`; its blocks belong to the section of world rank
   *  `rank`. Returns false (and keeps errno's text in error()) when the file
   *  cannot be created. */
  bool open(const std::string &path, uint32_t rank);
  /** Appends one record: 8-byte header (type, length) + `len` payload bytes.
   *  Returns false after an I/O error (the writer then drops all records). */
  bool record(uint32_t type, const void *payload, uint32_t len);
  /** Same with a payload made of two pieces (fixed struct + variable tail). */
  bool record2(uint32_t type, const void *a, uint32_t alen, const void *b, uint32_t blen);
  /** record() of a fixed-size payload `T` (e.g. arcoll_rec_coll): inline
   *  copy while the buffer has room (the profiler's hot path: no call, the
   *  copies sized at compile time), record() otherwise. */
  template <class T>
  bool record_fixed(uint32_t type, const T &payload) {
    const std::size_t need = sizeof(arcoll_record_header) + sizeof(T);
    if (failed_ || !f_ || used_ + need > buf_.size()) return record(type, &payload, uint32_t(sizeof(T)));
    const arcoll_record_header h{type, uint32_t(sizeof(T))};
    unsigned char *d = buf_.data() + used_;
    std::memcpy(d, &h, sizeof h);
    std::memcpy(d + sizeof h, &payload, sizeof(T));
    used_ += need;
    return true;
  }
  /** Writes the buffered records as one block to the file. */
  bool flush();
  /** Flushes and closes; returns false if any write failed. */
  bool close();

  bool failed() const { return failed_; }
  const std::string &error() const { return error_; }
  const std::string &path() const { return path_; }
  /** Bytes at the start of the file that hold only complete blocks and were
   *  written successfully (what may be read back after an I/O error). */
  uint64_t committed() const { return committed_; }

 private:
  static constexpr std::size_t kHead = sizeof(arcoll_record_header) + sizeof(arcoll_block_header);
  std::FILE *f_ = nullptr;
  std::vector<unsigned char> buf_;  // kHead bytes of block header, then the records
  std::size_t capacity_;            // buffer size asked for
  std::size_t used_ = kHead;
  uint32_t rank_ = 0, index_ = 0;
  uint64_t committed_ = 0;
  bool failed_ = false;
  std::string error_, path_;
};

}  // namespace arcoll::trace
#endif
