#include "apps/run_pool.h"

#include <atomic>
#include <charconv>
#include <chrono>
#include <exception>
#include <filesystem>
#include <mutex>
#include <thread>

#include "apps/scenario_run.h"
#include "sim/core/sim_time.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_reader.h"
#include "sim/scenario/scenario_overrides.h"

namespace sharesim {

bool run_is_finished(const std::string& dir) {
  std::error_code ec;
  return std::filesystem::is_regular_file(std::filesystem::path(dir) / "summary.json", ec);
}

nlohmann::ordered_json read_run_summary(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / "summary.json").string();
  return parse_json_text(read_text_file(path), path);
}

PoolReport run_pool(const std::vector<PooledRun>& runs, const GpuCatalog& catalog, unsigned threads,
                    const std::function<void(const PoolProgress&)>& progress) {
  PoolReport report;
  std::vector<std::size_t> pending;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (run_is_finished(runs[i].dir)) {
      ++report.reused;
    } else {
      pending.push_back(i);
    }
  }
  const auto start = std::chrono::steady_clock::now();
  std::mutex lock;
  PoolProgress state;
  state.total = runs.size();
  state.done = report.reused;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr first_error;
  if (progress) progress(state);

  auto worker = [&]() {
    while (!failed) {
      const std::size_t k = next++;
      if (k >= pending.size()) return;
      const PooledRun& run = runs[pending[k]];
      try {
        ScenarioRun simulation(*run.scenario, catalog);
        simulation.run();
        simulation.write_outputs(run.dir);
      } catch (...) {
        const std::lock_guard<std::mutex> guard(lock);
        if (!first_error) first_error = std::current_exception();
        failed = true;
        return;
      }
      const std::lock_guard<std::mutex> guard(lock);
      ++state.done;
      ++state.executed;
      state.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (progress) progress(state);
    }
  };
  const unsigned count = static_cast<unsigned>(std::min<std::size_t>(std::max(1u, threads), pending.size()));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < count; ++t) pool.emplace_back(worker);
  if (count > 0) worker();
  for (std::thread& thread : pool) thread.join();
  if (first_error) std::rethrow_exception(first_error);
  report.executed = state.executed;
  return report;
}

std::string format_pool_progress(const PoolProgress& p) {
  constexpr std::size_t width = 20;
  const std::size_t filled = p.total == 0 ? width : p.done * width / p.total;
  std::string line = "[" + std::string(filled, '#') + std::string(width - filled, '.') + "] " + std::to_string(p.done) +
                     "/" + std::to_string(p.total) + " runs  " + format_duration(seconds_to_time(p.elapsed_s));
  if (p.executed > 0 && p.done < p.total) {
    const double per_run = p.elapsed_s / static_cast<double>(p.executed);
    line += "  ETA " + format_duration(seconds_to_time(per_run * static_cast<double>(p.total - p.done)));
  }
  return line;
}

const nlohmann::ordered_json* summary_value(const nlohmann::ordered_json& summary, const std::string& path) {
  std::string pointer;
  try {
    pointer = override_pointer({path, ""});
  } catch (const InputError&) {
    return nullptr;
  }
  // The pointer's tokens, "~1" and "~0" unescaped (RFC 6901).
  std::vector<std::string> tokens;
  for (std::size_t start = 1; start <= pointer.size();) {
    std::size_t slash = pointer.find('/', start);
    if (slash == std::string::npos) slash = pointer.size();
    std::string token;
    for (std::size_t i = start; i < slash; ++i) {
      if (pointer[i] == '~' && i + 1 < slash) {
        token += pointer[i + 1] == '1' ? '/' : '~';
        ++i;
      } else {
        token += pointer[i];
      }
    }
    tokens.push_back(std::move(token));
    start = slash + 1;
  }
  const nlohmann::ordered_json* node = &summary;
  for (const std::string& token : tokens) {
    if (node->is_object()) {
      const auto it = node->find(token);
      if (it == node->end()) return nullptr;
      node = &*it;
    } else if (node->is_array()) {
      std::size_t index = 0;
      const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), index);
      if (ec != std::errc{} || end != token.data() + token.size() || index >= node->size()) return nullptr;
      node = &(*node)[index];
    } else {
      return nullptr;
    }
  }
  return node;
}

unsigned parse_thread_count(const std::string& text) {
  if (text.empty()) return std::max(1u, std::thread::hardware_concurrency());
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value < 1 || value > 1024) {
    throw InputError("-j", "", "expected a number of parallel runs from 1 to 1024, found " + quote(text));
  }
  return value;
}

std::string metric_path_problem(const nlohmann::ordered_json& summary, const std::string& run_dir,
                                const std::string& path) {
  const nlohmann::ordered_json* value = summary_value(summary, path);
  if (value != nullptr && (value->is_number() || value->is_null())) return "";
  return std::string(value == nullptr ? "no such field" : "not a number") + " in a run's summary.json (" + run_dir +
         "/summary.json); expected a dotted path to a number such as \"metrics.jobs.wait_s.p95\" (docs/outputs.md), "
         "found " + quote(path);
}

}  // namespace sharesim
