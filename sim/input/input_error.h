#pragma once
// One error type for every kind of bad user input (scenario files, traces, catalogs,
// command lines). The message names the file, the place (line:column or JSON pointer),
// what was expected and what was found. The front end prints it and exits with code 2.
#include <stdexcept>
#include <string>

namespace sharesim {

class InputError : public std::runtime_error {
 public:
  // file: path as the user gave it; where: "12:5" or "/cluster/node_pools/0/gpu" or "";
  // problem: "expected a number > 0, found -1".
  InputError(std::string file, std::string where, std::string problem)
      : std::runtime_error(compose(file, where, problem)),
        file_(std::move(file)),
        where_(std::move(where)),
        problem_(std::move(problem)) {}

  const std::string& file() const { return file_; }
  const std::string& where() const { return where_; }
  const std::string& problem() const { return problem_; }

 private:
  static std::string compose(const std::string& file, const std::string& where, const std::string& problem) {
    std::string text = file;
    if (!where.empty()) text += ": " + where;
    return text + ": " + problem;
  }
  std::string file_, where_, problem_;
};

// A job that no node of the cluster could ever hold: a pod larger than every node, a gang of
// more pods than the whole cluster holds at once. Reported and exited on as any input error,
// but it depends on the cluster's size and sharing, not on what was written wrong: `sharesim
// size` answers a variant that gives it at --max-nodes as holding the workload at no size up
// to there, where any other input error stays an error naming the variant.
class CapacityError : public InputError {
 public:
  using InputError::InputError;
  // The same problem restated (its place, or the override that set a value, added): still a
  // capacity problem.
  explicit CapacityError(const InputError& restated) : InputError(restated) {}
};

inline constexpr int kExitBadInput = 2;
inline constexpr int kExitInternalError = 1;

}  // namespace sharesim
