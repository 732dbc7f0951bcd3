// Helpers of the end-to-end tests of the `arcoll` command line
// (test_arcoll_cli.cpp, test_report.cpp, test_export_otf2.cpp): whole-file
// read / write and running a shell command with its output captured.
#ifndef ARCOLL_TEST_CLI_TEST_UTIL_HPP
#define ARCOLL_TEST_CLI_TEST_UTIL_HPP

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace clitest {

/** The bytes of file `p` ("" if it cannot be read). */
inline std::string slurp(const std::string &p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

/** Writes `text` to file `p` (truncated). */
inline void spit(const std::string &p, const std::string &text) { std::ofstream(p, std::ios::trunc) << text; }

/** Exit status (-1: did not exit normally), standard output and error. */
struct Result {
  int rc;
  std::string out, err;
};

/** Runs `cmd` with sh, its output in dir/stdout and dir/stderr. */
inline Result sh(const std::string &cmd, const std::string &dir) {
  int st = std::system((cmd + " >'" + dir + "/stdout' 2>'" + dir + "/stderr'").c_str());
  return Result{WIFEXITED(st) ? WEXITSTATUS(st) : -1, slurp(dir + "/stdout"), slurp(dir + "/stderr")};
}

}  // namespace clitest
#endif
