// Replace a file atomically: write a temporary file next to it, then rename
// it over the target, so that a reader never sees a half-written file and a
// failed write leaves the old one.  Header only, no MPI: used by libarcoll's
// tuning files (tuning_io.cpp, ARCOLL_TUNING_OUT) and by `arcoll tune`
// (tools/cli_tune.cpp).
#ifndef ARCOLL_ADAPT_ATOMIC_FILE_HPP
#define ARCOLL_ADAPT_ATOMIC_FILE_HPP

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

namespace arcoll {

/**
 * Write `text` to `path`, replacing it atomically (path + ".tmp<pid>", then
 * rename).  Throws std::runtime_error naming the file and the system error
 * (cannot create the temporary file, short write, cannot rename); the
 * temporary file is removed then and `path` is left as it was.
 */
inline void write_file_atomically(const std::string &path, const std::string &text) {
  const std::string tmp = path + ".tmp" + std::to_string((long)getpid());
  {
    std::ofstream out(tmp);
    if (!out) throw std::runtime_error("cannot write " + tmp + " (" + std::strerror(errno) + ")");
    out << text;
    out.close();
    if (!out) {
      const std::string e = std::strerror(errno);
      std::remove(tmp.c_str());
      throw std::runtime_error("write to " + tmp + " failed (" + e + ")");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string e = std::strerror(errno);
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot replace " + path + " (" + e + ")");
  }
}

}  // namespace arcoll

#endif
