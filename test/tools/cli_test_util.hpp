// Helpers of the end-to-end tests of the `arcoll` command line
// (test/tools/test_*.cpp): whole-file read / write, running a shell command
// with its output captured, and the fixture of a test with its own temporary
// directory.
#ifndef ARCOLL_TEST_CLI_TEST_UTIL_HPP
#define ARCOLL_TEST_CLI_TEST_UTIL_HPP

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
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

/**
 * A test with a fresh directory of its own, `dir` (/tmp/arcoll-<name>-test-XXXXXX),
 * removed with its contents after the test; run() starts the `arcoll` command
 * line (ARCOLL_CLI) in it. Throws std::runtime_error (the test fails) when the
 * directory cannot be made.
 */
class TempDirTest : public ::testing::Test {
 protected:
  explicit TempDirTest(const std::string &name) : dir(make_dir(name)) {}
  ~TempDirTest() override { std::system(("rm -rf '" + dir + "'").c_str()); }
#ifdef ARCOLL_CLI
  /** `env` (assignments such as "ARCOLL_X=1", may be empty) arcoll `args`, in dir. */
  Result run(const std::string &args, const std::string &env = "") const {
    return sh((env.empty() ? "" : env + " ") + "'" + ARCOLL_CLI + "' " + args, dir);
  }
#endif
  const std::string dir;

 private:
  static std::string make_dir(const std::string &name) {
    std::string tmpl = "/tmp/arcoll-" + name + "-test-XXXXXX";
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp " + tmpl + " failed");
    return tmpl;
  }
};

}  // namespace clitest
#endif
