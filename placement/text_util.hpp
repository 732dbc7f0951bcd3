/**
 * @file text_util.hpp
 * @brief Line helpers shared by the readers of topology.conf and hostfiles
 *        (topology.cpp, hostfile.cpp): trim, lower case, `#` comments, the
 *        meaningful lines of a file, whole file.
 */
#ifndef ARCOLL_PLACEMENT_TEXT_UTIL_HPP
#define ARCOLL_PLACEMENT_TEXT_UTIL_HPP

#include <cctype>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "topology.hpp"

namespace arcoll::placement::text {

/** `s` in lower case (ASCII). */
inline std::string lower(std::string s) {
  for (auto &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/** `s` without leading and trailing blanks. */
inline std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

/** `line` up to its first `#`. */
inline std::string strip_comment(const std::string &line) {
  size_t h = line.find('#');
  return h == std::string::npos ? line : line.substr(0, h);
}

/** Calls fn(body, where) for every line of `text` that is not blank once its
 *  `#` comment is cut: body trimmed, where = "PATH:LINE" (1-based) for
 *  error messages. */
template <class Fn>
void for_each_line(const std::string &text, const std::string &path, Fn fn) {
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    const std::string body = trim(strip_comment(line));
    if (!body.empty()) fn(body, fmt::format("{}:{}", path, lineno));
  }
}

/** The whole file at `path`; TopologyError "PATH: cannot open WHAT for reading" otherwise. */
inline std::string read_file(const std::string &path, const char *what) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw TopologyError(fmt::format("{}: cannot open {} for reading; check the path", path, what));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace arcoll::placement::text

#endif
