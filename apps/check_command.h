#pragma once
// `sharesim check RUN_DIR --baseline BASE_DIR [--tol PATH=5%]... [--alpha P] [--junit FILE]
// [--markdown FILE] [--update]`: compares a run (or replicated runs) with a baseline
// (regression/run_check.h, docs/ci.md). Exit 0 when nothing moved beyond tolerance, 1 when
// something did, 2 on bad input. The front end only parses and prints.
#include <memory>

namespace CLI {
class App;
}

namespace sharesim {

struct CheckCommand;  // the parsed options

std::shared_ptr<CheckCommand> add_check_command(CLI::App& app);
bool check_command_chosen(const CheckCommand& command);
// Runs it; returns the exit code. Throws InputError for bad input (exit 2).
int run_check_command(const CheckCommand& command);

}  // namespace sharesim
