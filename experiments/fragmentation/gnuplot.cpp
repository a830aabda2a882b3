#include "experiments/fragmentation/gnuplot.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "sim/input/input_error.h"

extern char** environ;

namespace sharesim {

namespace {

std::string cannot_run(const std::string& reason, const std::string& hint) {
  return "cannot run gnuplot (" + reason + "); install it (scripts/install-deps.sh installs gnuplot-nox)" + hint;
}

}  // namespace

void require_gnuplot(const std::string& hint) {
  const char* path = std::getenv("PATH");
  // posix_spawnp without PATH searches the default path (confstr _CS_PATH).
  const std::string search = path != nullptr ? path : "/bin:/usr/bin";
  std::size_t start = 0;
  while (true) {
    const std::size_t end = search.find(':', start);
    const std::string dir = search.substr(start, end == std::string::npos ? std::string::npos : end - start);
    // An empty entry is the current directory, as for the shell.
    const std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / "gnuplot";
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0) return;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  throw InputError("gnuplot", "", cannot_run("not found on PATH", hint));
}

void run_gnuplot(const std::string& script_path, const std::string& hint) {
  const std::filesystem::path script = std::filesystem::absolute(script_path);
  std::string program = "gnuplot";
  std::string argument = script.filename().string();
  std::vector<char*> argv{program.data(), argument.data(), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // gnuplot resolves the data file names in the script relative to its working directory.
  const std::string dir = script.parent_path().string();
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    throw InputError("gnuplot", "", cannot_run(std::strerror(spawned), hint));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw InputError("gnuplot", "", std::string("waiting for gnuplot: ") + std::strerror(errno));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw InputError(script_path, "",
                     "gnuplot failed on this script (exit status " +
                         std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
  }
}

}  // namespace sharesim
