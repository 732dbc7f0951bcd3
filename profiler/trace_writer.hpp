/**
 * @file trace_writer.hpp
 * @brief Buffered, bounded-memory writer of arcoll trace records (format:
 *        trace_format.h). Used by the profiler for its per-rank part file.
 */
#ifndef ARCOLL_TRACE_WRITER_HPP
#define ARCOLL_TRACE_WRITER_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "trace_format.h"

namespace arcoll::trace {

/** Appends records to a file through a fixed buffer (default 1 MiB): memory
 *  stays bounded whatever the length of the run. Not thread-safe. */
class RecordWriter {
 public:
  explicit RecordWriter(std::size_t buffer_bytes = std::size_t(1) << 20);
  ~RecordWriter();
  RecordWriter(const RecordWriter &) = delete;
  RecordWriter &operator=(const RecordWriter &) = delete;

  /** Creates/truncates `path`. Returns false (and keeps errno's text in
   *  error()) when the file cannot be created. */
  bool open(const std::string &path);
  /** Appends one record: 8-byte header (type, length) + `len` payload bytes.
   *  Returns false after an I/O error (the writer then drops all records). */
  bool record(uint32_t type, const void *payload, uint32_t len);
  /** Same with a payload made of two pieces (fixed struct + variable tail). */
  bool record2(uint32_t type, const void *a, uint32_t alen, const void *b, uint32_t blen);
  /** Writes the buffer to the file. */
  bool flush();
  /** Flushes and closes; returns false if any write failed. */
  bool close();

  bool failed() const { return failed_; }
  const std::string &error() const { return error_; }
  const std::string &path() const { return path_; }
  /** Bytes at the start of the file that hold only complete records and
   *  were written successfully (what may be read back after an I/O error). */
  uint64_t committed() const { return committed_; }

 private:
  bool put(const void *p, std::size_t n);
  std::FILE *f_ = nullptr;
  std::vector<unsigned char> buf_;
  std::size_t used_ = 0;
  uint64_t appended_ = 0;      // bytes handed to put() so far
  uint64_t record_end_ = 0;    // appended_ at the end of the last complete record
  uint64_t committed_ = 0;
  bool failed_ = false;
  std::string error_, path_;
};

}  // namespace arcoll::trace
#endif
