#include "experiments/fragmentation/gnuplot.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "sim/input/input_error.h"

extern char** environ;

namespace sharesim {

void run_gnuplot(const std::string& script_path) {
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
    throw InputError("gnuplot", "",
                     std::string("cannot run gnuplot (") + std::strerror(spawned) +
                         "); install it (scripts/install-deps.sh installs gnuplot-nox) or pass --no-plot");
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
