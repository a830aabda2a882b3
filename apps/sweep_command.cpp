#include "apps/sweep_command.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <vector>

#include "apps/run_pool.h"
#include "apps/sweep_results.h"
#include "apps/sweep_spec.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"

namespace sharesim {

struct SweepCommand {
  CLI::App* command = nullptr;
  CLI::App* merge = nullptr;
  std::string spec;
  std::string jobs;
  std::string shard;
  std::string output;
  std::vector<std::string> merge_dirs;
  std::string merge_output;
  bool quiet = false;
};

namespace {

std::size_t parse_count(const std::string& text, const std::string& origin, const std::string& what) {
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) {
    throw InputError(origin, "", "expected " + what + ", found " + quote(text));
  }
  return value;
}

const char* environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

// Checks the metrics against a finished run's summary before the others run.
void check_metrics(const ScenarioSweepSpec& spec, const std::string& run_dir) {
  const nlohmann::ordered_json summary = read_run_summary(run_dir);
  for (std::size_t i = 0; i < spec.metrics.size(); ++i) {
    const std::string problem = metric_path_problem(summary, run_dir, spec.metrics[i]);
    if (!problem.empty()) throw InputError(spec.file, pointer_append("/metrics", i), problem);
  }
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int run_scenario_sweep(const SweepCommand& c) {
  if (c.spec.empty())
    throw InputError("sharesim sweep", "", "expected a sweep spec file (SPEC.json) or `merge DIR...`");
  if (c.output.empty()) throw InputError("-o", "", "expected the sweep's output folder (-o DIR)");
  const unsigned threads = parse_thread_count(c.jobs);
  std::optional<Shard> shard;
  if (!c.shard.empty()) {
    shard = parse_shard(c.shard);
  } else {
    shard = shard_from_environment();
  }
  const auto start = std::chrono::steady_clock::now();
  const ScenarioSweepSpec spec = load_sweep_spec(c.spec);
  const ExpandedSweep sweep = expand_sweep(spec, GpuCatalog::builtin());
  write_sweep_plan(c.output, sweep.plan);

  std::vector<PooledRun> runs;
  for (std::size_t k = 0; k < sweep.plan.runs.size(); ++k) {
    if (shard && k % shard->count != shard->index) continue;
    runs.push_back({&sweep.scenarios[k], sweep_run_dir(c.output, sweep.plan.runs[k].id)});
  }
  const bool show = !c.quiet && isatty(STDERR_FILENO) != 0;
  bool drawn = false;
  const auto draw = [&](const PoolProgress& p) {
    if (!show) return;
    drawn = true;
    std::fprintf(stderr, "\r%s   ", format_pool_progress(p).c_str());
  };
  PoolReport report;
  if (!runs.empty()) {
    // The first run alone, to check the metric paths against a real summary.json.
    const PoolReport first = run_pool({runs.front()}, GpuCatalog::builtin(), 1);
    check_metrics(spec, runs.front().dir);
    const std::vector<PooledRun> rest(runs.begin() + 1, runs.end());
    report = run_pool(rest, GpuCatalog::builtin(), threads, [&](PoolProgress p) {
      p.done += 1;
      p.total += 1;
      p.executed += first.executed;
      draw(p);
    });
    report.executed += first.executed;
    report.reused += first.reused;
  }
  if (drawn) std::fputs("\n", stderr);
  const double wall = seconds_since(start);
  const bool whole = !shard || shard->count == 1;
  if (whole) write_sweep_results(c.output, build_sweep_results(sweep.plan, {c.output}));
  if (!c.quiet) {
    char line[256];
    std::snprintf(line, sizeof line, "%zu of %zu runs", runs.size(), sweep.plan.runs.size());
    std::cout << "sweep       "
              << (whole ? count_of(static_cast<long long>(runs.size()), "run", "runs") : std::string(line))
              << (whole ? "" : " (shard " + std::to_string(shard->index) + "/" + std::to_string(shard->count) + ")")
              << ": " << report.executed << " run now, " << report.reused << " already done; " << threads
              << (threads == 1 ? " thread, " : " threads, ");
    std::snprintf(line, sizeof line, "%.1f s wall\n", wall);
    std::cout << line;
    if (whole) {
      std::cout << "outputs     " << c.output << "/ (runs.csv, aggregate.csv, aggregate.json, runs/)\n";
    } else {
      std::cout << "outputs     " << c.output << "/runs/; once every shard is done: sharesim sweep merge DIR...\n";
    }
  }
  return 0;
}

int run_merge(const SweepCommand& c) {
  const SweepPlan plan = read_sweep_plan(c.merge_dirs.front());
  const std::string plan_text = plan.to_json().dump();
  for (std::size_t i = 1; i < c.merge_dirs.size(); ++i) {
    if (read_sweep_plan(c.merge_dirs[i]).to_json().dump() != plan_text) {
      throw InputError(c.merge_dirs[i], "",
                       "its sweep-plan.json differs from that of " + c.merge_dirs.front() +
                           ": these folders hold shards of different sweeps (or of different sharesim versions)");
    }
  }
  const std::string output = c.merge_output.empty() ? c.merge_dirs.front() : c.merge_output;
  const SweepResults results = build_sweep_results(plan, c.merge_dirs);
  write_sweep_results(output, results);
  if (!c.quiet) {
    std::cout << "merged      " << count_of(static_cast<long long>(plan.runs.size()), "run", "runs") << " from "
              << count_of(static_cast<long long>(c.merge_dirs.size()), "folder", "folders") << "\noutputs     "
              << output << "/ (runs.csv, aggregate.csv, aggregate.json)\n";
  }
  return 0;
}

}  // namespace

Shard parse_shard(const std::string& text, const std::string& origin) {
  const std::size_t slash = text.find('/');
  const auto bad = [&]() {
    return InputError(origin, "", "expected I/N with 0 <= I < N (e.g. 0/4), found " + quote(text));
  };
  if (slash == std::string::npos) throw bad();
  Shard shard;
  try {
    shard.index = parse_count(text.substr(0, slash), origin, "I/N");
    shard.count = parse_count(text.substr(slash + 1), origin, "I/N");
  } catch (const InputError&) {
    throw bad();
  }
  if (shard.count == 0 || shard.index >= shard.count) throw bad();
  return shard;
}

std::optional<Shard> shard_from_environment() {
  if (const char* id = environment("SLURM_ARRAY_TASK_ID")) {
    const char* count = environment("SLURM_ARRAY_TASK_COUNT");
    if (count == nullptr) {
      throw InputError("SLURM_ARRAY_TASK_COUNT", "", "is not set although SLURM_ARRAY_TASK_ID is; give --shard I/N");
    }
    const char* min = environment("SLURM_ARRAY_TASK_MIN");
    const std::size_t first = min == nullptr ? 0 : parse_count(min, "SLURM_ARRAY_TASK_MIN", "an integer >= 0");
    const std::size_t task = parse_count(id, "SLURM_ARRAY_TASK_ID", "an integer >= 0");
    const std::size_t tasks = parse_count(count, "SLURM_ARRAY_TASK_COUNT", "an integer >= 1");
    // --array=0-7 or 1-8: the tasks are numbered from SLURM_ARRAY_TASK_MIN without gaps
    // (docs/sweeps.md); a stepped or sparse array cannot be mapped to shards.
    if (task < first || tasks == 0 || task - first >= tasks) {
      throw InputError("SLURM_ARRAY_TASK_ID", "",
                       "task " + std::string(id) + " is not in " + std::to_string(first) + ".." +
                           std::to_string(first + tasks - 1) +
                           " (SLURM_ARRAY_TASK_MIN..MIN+COUNT-1); submit a contiguous --array, e.g. --array=0-" +
                           std::to_string(tasks - 1));
    }
    return Shard{task - first, tasks};
  }
  if (const char* index = environment("JOB_COMPLETION_INDEX")) {
    const char* count = environment("JOB_COMPLETIONS");
    if (count == nullptr) {
      throw InputError("JOB_COMPLETIONS", "",
                       "is not set although JOB_COMPLETION_INDEX is; set it to the Job's .spec.completions "
                       "(docs/sweeps.md) or give --shard I/N");
    }
    return parse_shard(std::string(index) + "/" + count, "JOB_COMPLETION_INDEX/JOB_COMPLETIONS");
  }
  return std::nullopt;
}

std::shared_ptr<SweepCommand> add_sweep_command(CLI::App& app) {
  auto c = std::make_shared<SweepCommand>();
  c->command = app.add_subcommand(
      "sweep", "Run a scenario over a grid of values, sharing variants and seeds; aggregate with confidence intervals");
  c->command->add_option("spec", c->spec, "Sweep spec (JSON; docs/sweeps.md)");
  c->command->add_option("-j,--jobs", c->jobs, "Runs at a time (default: the machine's hardware threads)");
  c->command->add_option("--shard", c->shard,
                         "Run only shard I of N (runs k with k mod N = I); default from SLURM_ARRAY_TASK_ID or "
                         "JOB_COMPLETION_INDEX");
  c->command->add_option("-o,--output", c->output, "Output folder (resumable: finished runs are kept)");
  c->command->add_flag("-q,--quiet", c->quiet, "Print nothing on success");
  c->merge =
      c->command->add_subcommand("merge", "Build runs.csv and the aggregate from the folders of a sweep's shards");
  c->merge->add_option("dirs", c->merge_dirs, "The shards' output folders")->required();
  c->merge->add_option("-o,--output", c->merge_output, "Where to write the results (default: the first folder)");
  c->merge->add_flag("-q,--quiet", c->quiet, "Print nothing on success");
  return c;
}

bool sweep_command_chosen(const SweepCommand& command) { return command.command->parsed(); }

int run_sweep_command(const SweepCommand& command) {
  if (command.merge->parsed()) return run_merge(command);
  return run_scenario_sweep(command);
}

}  // namespace sharesim
