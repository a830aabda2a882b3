#pragma once
// `sharesim trace stats|convert|node-pools`: the trace tools' command line (docs/traces.md,
// "Trace tools"). The work is done in workloads/ (trace_tools.h, openb_trace.h); this file
// only declares the options and prints.
#include <CLI/CLI.hpp>
#include <memory>

namespace sharesim {

struct TraceCommand;
// Adds the `trace` subcommand (with its own subcommands) to the app.
std::shared_ptr<TraceCommand> add_trace_command(CLI::App& app);
// Whether the parsed command line chose `trace`.
bool trace_command_selected(const TraceCommand& command);
// Runs it; throws InputError for bad input (the caller prints it and exits with 2).
int run_trace_command(TraceCommand& command);

}  // namespace sharesim
