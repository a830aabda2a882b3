#include "kernels/run_modes.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>

#include "apps/build_info.h"
#include "kernels/host/calib_error.h"
#include "kernels/host/file_write.h"
#include "kernels/host/json_read.h"
#include "kernels/host/raw_data.h"
#include "sim/cluster/gpu_catalog.h"
#include "sim/input/input_error.h"

namespace sharesim::calib {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

std::string catalog_id_for(const std::string& name) {
  auto has = [&](const char* text) { return name.find(text) != std::string::npos; };
  if (has("A100") && has("80GB")) return "A100-80GB";
  if (has("A100") && (has("40GB") || has("SXM4") || has("PCIE"))) return "A100-40GB";
  if (has("H100") && (has("80GB") || has("HBM3"))) return "H100-80GB";
  if (has("H200")) return "H200-141GB";
  return "";
}

void require_writable_output(const std::string& path) {
  if (path.empty()) throw CalibError("-o", "", "expected the path of a file to write, found an empty path");
  const fs::path target(path);
  const fs::path parent = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::error_code ec;
  if (fs::is_directory(target, ec)) throw CalibError(path, "", "cannot write the file: it is a directory");
  if (!fs::exists(parent, ec)) {
    throw CalibError(path, "", "cannot write the file: directory " + parent.string() + " does not exist");
  }
  if (!fs::is_directory(parent, ec)) {
    throw CalibError(path, "", "cannot write the file: " + parent.string() + " is not a directory");
  }
  // Permissions, a read-only or pseudo file system: create and remove a file beside the target.
  const fs::path probe = parent / ("." + target.filename().string() + ".probe" + std::to_string(getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    const std::string reason = std::strerror(errno);
    throw CalibError(path, "",
                     "cannot write the file: cannot create a file in " + parent.string() + " (" + reason + ")");
  }
  ::close(fd);
  fs::remove(probe, ec);
}

void require_catalog_gpu(const std::string& id, const std::string& catalog_path, const std::string& file,
                         const std::string& where) {
  std::optional<GpuCatalog> loaded;
  if (!catalog_path.empty()) {
    try {
      loaded = GpuCatalog::load_file(catalog_path);
    } catch (const InputError& e) {
      throw CalibError(e.file(), e.where(), e.problem());
    }
  }
  const GpuCatalog& catalog = loaded ? *loaded : GpuCatalog::builtin();
  if (catalog.find(id) == nullptr || catalog.find(id)->id != id) {
    throw CalibError(file.empty() ? where : file, file.empty() ? "" : where, unknown_gpu_model_problem(id, catalog));
  }
}

std::vector<int> default_sm_counts(const gpu::DeviceInfo& device) {
  std::vector<int> counts;
  // SMs of the MIG GPU-instance profiles (as nvidia-smi mig -lgip lists them; --sms overrides):
  // A100 1g, 2g, 3g, 4g, 7g = 14, 28, 42, 56, 98 (not checked on hardware here); H100/H200 1g, 1g
  // with double memory, 2g, 3g, 4g, 7g = 16, 26, 32, 60, 64, 132 (the H100 80GB HBM3 listing,
  // driver 580.159.04, 2026-11-23; docs/calibration.md).
  if (device.cc_major == 8 && device.cc_minor == 0) counts = {14, 28, 42, 56, 98};
  if (device.cc_major == 9 && device.cc_minor == 0) counts = {16, 26, 32, 60, 64, 132};
  for (int n = 1; n <= 8; ++n) {
    counts.push_back(static_cast<int>(std::lround(static_cast<double>(device.sm_count) / n)));
  }
  std::erase_if(counts, [&](int k) { return k < 1 || k > device.sm_count; });
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

namespace {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

// The NVIDIA kernel driver's version from /proc/driver/nvidia/version, else the CUDA driver API's.
std::string driver_version(const gpu::DeviceInfo& device) {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (in && std::getline(in, line)) {
    // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  ..." or, for the open modules,
    // "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  ...": the version is
    // the first word after "Kernel Module" that starts with a digit and holds a dot.
    const auto at = line.find("Kernel Module");
    if (at != std::string::npos) {
      std::istringstream words(line.substr(at + 13));
      std::string word;
      while (words >> word) {
        if (std::isdigit(static_cast<unsigned char>(word[0])) != 0 && word.find('.') != std::string::npos) return word;
      }
    }
  }
  return "CUDA driver API " + device.driver;
}

std::string self_path() {
  std::error_code error;
  const fs::path path = fs::read_symlink("/proc/self/exe", error);
  if (error) throw gpu::GpuError("cannot find this program's path in /proc/self/exe: " + error.message());
  return path.string();
}

// ---- Worker processes ----

struct Worker {
  pid_t pid = -1;
  int go = -1;     // parent writes the start byte here
  int ready = -1;  // parent reads 'R' here
  std::string out;
};

// Extra environment variables for a child process.
struct Environment {
  std::vector<std::pair<std::string, std::string>> set;
};

// This process's environment with `env` applied, as execve wants it. Built before fork(): the
// parent has CUDA's threads, so the child may only call async-signal-safe functions.
std::vector<std::string> child_environment(const Environment& env) {
  std::vector<std::string> out;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const bool replaced = std::any_of(env.set.begin(), env.set.end(), [&](const auto& kv) {
      return entry.compare(0, kv.first.size() + 1, kv.first + "=") == 0;
    });
    if (!replaced) out.push_back(entry);
  }
  for (const auto& [key, value] : env.set) out.push_back(key + "=" + value);
  return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Forks and execs `program` with stdin and stdout redirected (-1: /dev/null for stdout, keep
// stdin). Returns the child's pid, or -1.
pid_t fork_exec(const std::string& program, std::vector<std::string> args, const Environment& env, int stdin_fd,
                int stdout_fd) {
  args.insert(args.begin(), program);
  std::vector<char*> argv = pointers(args);
  std::vector<std::string> environment = child_environment(env);
  std::vector<char*> envp = pointers(environment);
  const pid_t pid = fork();
  if (pid != 0) return pid;
  if (stdin_fd >= 0) dup2(stdin_fd, STDIN_FILENO);
  if (stdout_fd >= 0) {
    dup2(stdout_fd, STDOUT_FILENO);
  } else {
    const int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, STDOUT_FILENO);
  }
  execve(program.c_str(), argv.data(), envp.data());
  _exit(127);
}

Worker spawn(const std::vector<std::string>& args, const std::string& out, const Environment& env) {
  int go[2];
  int ready[2];
  if (pipe2(go, O_CLOEXEC) != 0 || pipe2(ready, O_CLOEXEC) != 0) {
    throw gpu::GpuError(std::string("pipe2: ") + std::strerror(errno));
  }
  const pid_t pid = fork_exec(self_path(), args, env, go[0], ready[1]);
  close(go[0]);
  close(ready[1]);
  if (pid < 0) {
    close(go[1]);
    close(ready[0]);
    throw gpu::GpuError(std::string("fork: ") + std::strerror(errno));
  }
  return Worker{pid, go[1], ready[0], out};
}

// Kills and reaps the workers still running (only our own children, by pid).
void kill_all(std::vector<Worker>& workers) {
  for (Worker& w : workers) {
    if (w.pid > 0) {
      kill(w.pid, SIGKILL);
      waitpid(w.pid, nullptr, 0);
      w.pid = -1;
    }
    if (w.go >= 0) close(w.go);
    if (w.ready >= 0) close(w.ready);
    w.go = w.ready = -1;
  }
}

// Starts the workers together: waits (up to `setup`) until each has prepared its context, then
// releases all at once, then waits (up to `run`) for all to finish. Returns "" or what went wrong.
std::string run_together(std::vector<Worker>& workers, std::chrono::seconds setup, std::chrono::seconds run,
                         const std::function<void()>& on_start = {}) {
  const auto ready_deadline = std::chrono::steady_clock::now() + setup;
  for (Worker& w : workers) {
    pollfd fd{w.ready, POLLIN, 0};
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(ready_deadline - std::chrono::steady_clock::now());
    char byte = 0;
    if (poll(&fd, 1, static_cast<int>(std::max<long long>(0, left.count()))) != 1 || read(w.ready, &byte, 1) != 1 ||
        byte != 'R') {
      kill_all(workers);
      return "a worker process did not get ready (it failed to create its CUDA context; see its message above)";
    }
  }
  for (Worker& w : workers) {
    const char go = 'G';
    if (write(w.go, &go, 1) != 1) {
      kill_all(workers);
      return "could not start a worker process";
    }
  }
  if (on_start) on_start();
  const auto done_deadline = std::chrono::steady_clock::now() + run;
  std::string failure;
  for (Worker& w : workers) {
    int status = 0;
    for (;;) {
      const pid_t r = waitpid(w.pid, &status, WNOHANG);
      if (r == w.pid) break;
      if (r < 0 || std::chrono::steady_clock::now() > done_deadline) {
        kill_all(workers);
        return "a worker process did not finish in time";
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    w.pid = -1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failure = "a worker process failed (see its message above)";
  }
  kill_all(workers);  // closes the pipes
  return failure;
}

struct TempDir {
  std::string path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "sharesim-calibrate-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw gpu::GpuError(std::string("mkdtemp: ") + std::strerror(errno));
    path = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

// Worker files are small; re-parsed as ordered_json to keep their key order in the raw file.
ordered_json read_worker_output(const std::string& path) { return ordered_json::parse(read_json_file(path).dump()); }

std::vector<std::string> base_args(const std::string& role, const RunOptions& o, const std::string& out) {
  return {"worker", "--role", role, "--device", std::to_string(o.device), "--out", out};
}

// ---- Time-slice probe ----

ordered_json measure_timeslice(const RunOptions& o, const gpu::DeviceInfo& device) {
  ordered_json section;
  section["threshold_ns"] = o.threshold_ns;
  section["duration_ns"] = o.probe_ns;
  section["runs"] = ordered_json::array();
  if (device.compute_mode != "default") {
    const std::string reason = "the time-slice probe needs several processes on the GPU, but its compute mode is " +
                               device.compute_mode + "; sharesim-calibrate never changes it";
    section["skipped"] = reason;
    section["cache_refill"] = {{"skipped", reason}};
    return section;
  }
  TempDir dir;
  const auto run_time = std::chrono::seconds(120 + o.probe_ns / 1000000000);
  for (int n = 2; n <= o.max_processes; ++n) {
    std::cerr << "sharesim-calibrate: time-slice probe with " << n << " processes\n";
    std::vector<Worker> workers;
    for (int i = 0; i < n; ++i) {
      const std::string out = dir.path + "/probe-" + std::to_string(n) + "-" + std::to_string(i) + ".json";
      auto args = base_args("probe", o, out);
      args.insert(args.end(),
                  {"--duration-ns", std::to_string(o.probe_ns), "--threshold-ns", std::to_string(o.threshold_ns)});
      workers.push_back(spawn(args, out, {}));
    }
    const std::string failure = run_together(workers, std::chrono::seconds(120), run_time);
    if (!failure.empty()) {
      section["skipped"] = "time-slice probe with " + std::to_string(n) + " processes: " + failure;
      break;
    }
    ordered_json run;
    run["processes"] = n;
    run["contexts"] = ordered_json::array();
    for (const Worker& w : workers) run["contexts"].push_back(read_worker_output(w.out));
    section["runs"].push_back(run);
  }

  // Cache refill: one process walks a buffer of half the L2 with the whole GPU while another
  // thrashes L2.
  std::cerr << "sharesim-calibrate: cache-refill walk\n";
  const std::int64_t buffer = device.l2_bytes / 2;
  std::vector<Worker> workers;
  const std::string walk_out = dir.path + "/walk.json";
  auto walk_args = base_args("walk", o, walk_out);
  walk_args.insert(walk_args.end(), {"--duration-ns", std::to_string(o.probe_ns), "--threshold-ns",
                                     std::to_string(o.threshold_ns), "--buffer-bytes", std::to_string(buffer)});
  workers.push_back(spawn(walk_args, walk_out, {}));
  const std::string thrash_out = dir.path + "/thrash.json";
  auto thrash_args = base_args("thrash", o, thrash_out);
  thrash_args.insert(thrash_args.end(), {"--duration-ns", std::to_string(o.probe_ns + 200000000)});
  workers.push_back(spawn(thrash_args, thrash_out, {}));
  const std::string failure = run_together(workers, std::chrono::seconds(120), run_time);
  if (failure.empty()) {
    ordered_json cache = read_worker_output(walk_out);
    cache["processes"] = 2;
    cache["buffer_bytes"] = buffer;
    section["cache_refill"] = cache;
  } else {
    section["cache_refill"] = {{"skipped", failure}};
  }
  return section;
}

// ---- Co-run contention ----

std::vector<std::vector<std::string>> corun_sets() {
  const auto& names = gpu::stressor_names();
  std::vector<std::vector<std::string>> sets;
  for (const std::string& a : names) sets.push_back({a});
  for (std::size_t i = 0; i < names.size(); ++i) {
    for (std::size_t j = i + 1; j < names.size(); ++j) sets.push_back({names[i], names[j]});
  }
  sets.push_back({"fma", "triad", "l2"});
  sets.push_back({"fma", "triad", "smem"});
  sets.push_back({"triad", "l2", "launch"});
  sets.push_back({"fma", "smem", "launch"});
  return sets;
}

// Each kernel of `set` in its own process (time-sliced, or MPS clients when `env` names an MPS
// daemon). Returns the throughputs, or nothing with `failure` set.
std::optional<std::vector<double>> corun_processes(const RunOptions& o, const std::vector<std::string>& set,
                                                   const Environment& env, const std::string& dir,
                                                   std::string& failure) {
  std::vector<Worker> workers;
  for (std::size_t i = 0; i < set.size(); ++i) {
    const std::string out = dir + "/stress-" + std::to_string(i) + ".json";
    auto args = base_args("stress", o, out);
    args.insert(args.end(), {"--stressor", set[i], "--seconds", std::to_string(o.seconds)});
    workers.push_back(spawn(args, out, env));
  }
  failure = run_together(workers, std::chrono::seconds(120), std::chrono::seconds(120 + static_cast<int>(o.seconds)));
  if (!failure.empty()) return std::nullopt;
  std::vector<double> throughput;
  for (const Worker& w : workers) {
    const ordered_json result = read_worker_output(w.out);
    throughput.push_back(result.at("throughput").get<double>());
  }
  return throughput;
}

std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// Starts an MPS control daemon of our own (pipe and log directories in a temporary directory)
// and stops it on destruction. Never touches a daemon or compute mode of anyone else.
class MpsDaemon {
 public:
  explicit MpsDaemon(const std::string& root) {
    pipe_dir_ = root + "/mps-pipe";
    log_dir_ = root + "/mps-log";
    fs::create_directories(pipe_dir_);
    fs::create_directories(log_dir_);
    env_.set = {{"CUDA_MPS_PIPE_DIRECTORY", pipe_dir_}, {"CUDA_MPS_LOG_DIRECTORY", log_dir_}};
    const int status = run_control({"-d"}, "");
    if (status == 127) {
      reason_ = "nvidia-cuda-mps-control could not be run (not on PATH)";
    } else if (status != 0) {
      reason_ = "nvidia-cuda-mps-control -d exited with status " + std::to_string(status);
    } else {
      started_ = true;
    }
  }
  ~MpsDaemon() {
    if (started_) run_control({}, "quit\n");
  }
  MpsDaemon(const MpsDaemon&) = delete;
  MpsDaemon& operator=(const MpsDaemon&) = delete;
  bool started() const { return started_; }
  const std::string& reason() const { return reason_; }
  const Environment& env() const { return env_; }

 private:
  int run_control(const std::vector<std::string>& args, const std::string& input) {
    const std::string program = find_on_path("nvidia-cuda-mps-control");
    if (program.empty()) return 127;
    int in[2];
    if (pipe2(in, O_CLOEXEC) != 0) return -1;
    const pid_t pid = fork_exec(program, args, env_, in[0], -1);
    close(in[0]);
    if (pid < 0) {
      close(in[1]);
      return -1;
    }
    if (!input.empty() && write(in[1], input.data(), input.size()) < 0) {
      // the control client exits on its own when stdin closes
    }
    close(in[1]);
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
      const pid_t r = waitpid(pid, &status, WNOHANG);
      if (r == pid) break;
      if (r < 0 || std::chrono::steady_clock::now() > deadline) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
        return -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  std::string pipe_dir_;
  std::string log_dir_;
  Environment env_;
  bool started_ = false;
  std::string reason_;
};

// Runs `measure(mode, env)` for the two multi-process modes: "processes" (each worker a process
// of its own, so the GPU time-slices them; needs compute mode Default, never changed) and "mps"
// (clients of an MPS daemon of our own). A mode that cannot run is recorded with the reason in
// section["skipped"]; `measure` records its own failures. `what` names the experiment
// in progress lines.
void for_each_process_mode(const RunOptions& o, const gpu::DeviceInfo& device, const std::string& dir,
                           ordered_json& section, const std::string& what,
                           const std::function<void(const std::string& mode, const Environment& env)>& measure) {
  if (device.compute_mode != "default") {
    section["skipped"].push_back(
        {{"mode", "processes"}, {"reason", "compute mode is " + device.compute_mode + ", not default; never changed"}});
  } else {
    std::cerr << "sharesim-calibrate: " << what << ", separate processes (time-sliced)\n";
    measure("processes", {});
  }
  if (o.skip_mps) {
    section["skipped"].push_back({{"mode", "mps"}, {"reason", "--no-mps was given"}});
    return;
  }
  MpsDaemon mps(dir);
  if (!mps.started()) {
    section["skipped"].push_back({{"mode", "mps"}, {"reason", mps.reason()}});
    return;
  }
  std::cerr << "sharesim-calibrate: " << what << ", MPS clients of our own MPS daemon\n";
  measure("mps", mps.env());
}

ordered_json measure_corun(const RunOptions& o, const gpu::DeviceInfo& device) {
  ordered_json section;
  section["seconds"] = o.seconds;
  section["stressors"] = ordered_json::object();
  for (const std::string& name : gpu::stressor_names()) {
    section["stressors"][name] = {{"unit", gpu::stressor_unit(name)},
                                  {"dram_bytes_per_unit", gpu::stressor_dram_bytes_per_unit(name)}};
  }
  section["cases"] = ordered_json::array();
  section["skipped"] = ordered_json::array();
  auto add = [&](const std::string& mode, const std::vector<std::string>& set, const std::vector<double>& tp) {
    section["cases"].push_back({{"mode", mode}, {"kernels", set}, {"throughput", tp}});
  };

  std::cerr << "sharesim-calibrate: co-run, streams in one context\n";
  for (const auto& set : corun_sets()) add("streams", set, gpu::run_stressors(o.device, set, o.seconds));

  TempDir dir;
  for_each_process_mode(o, device, dir.path, section, "co-run", [&](const std::string& mode, const Environment& env) {
    for (const auto& set : corun_sets()) {
      std::string failure;
      const auto tp = corun_processes(o, set, env, dir.path, failure);
      if (!tp) {
        section["skipped"].push_back({{"mode", mode}, {"reason", failure}});
        break;
      }
      add(mode, set, *tp);
    }
  });
  return section;
}

// ---- Duty-cycle probe ----

// nvidia-smi's utilization.gpu ("percent of time over the past sample period during which one or
// more kernels was executing"), utilization.memory and memory.used every 100 ms while a case runs:
// what an operator would read. Read-only queries; never a setting.
class SmiSampler {
 public:
  explicit SmiSampler(const std::string& path) : path_(path), program_(find_on_path("nvidia-smi")) {}
  ~SmiSampler() { stop(); }
  SmiSampler(const SmiSampler&) = delete;
  SmiSampler& operator=(const SmiSampler&) = delete;
  void start(int device) {
    if (program_.empty()) return;
    const int fd = open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return;
    pid_ = fork_exec(program_,
                     {"-i", std::to_string(device), "--query-gpu=utilization.gpu,utilization.memory,memory.used",
                      "--format=csv,noheader,nounits", "-lms", "100"},
                     {}, -1, fd);
    close(fd);
  }
  void stop() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
  }
  // Samples as [utilization.gpu %, utilization.memory %, memory.used MiB]; lines that are not three
  // numbers (nvidia-smi's "[N/A]", a line cut by the kill) are left out.
  ordered_json samples() const {
    ordered_json out = ordered_json::array();
    std::ifstream in(path_);
    std::string line;
    while (std::getline(in, line)) {
      double a = 0, b = 0, c = 0;
      char tail = 0;
      if (std::sscanf(line.c_str(), " %lf , %lf , %lf %c", &a, &b, &c, &tail) == 3) out.push_back({a, b, c});
    }
    return out;
  }
  bool available() const { return !program_.empty(); }

 private:
  std::string path_;
  std::string program_;  // nvidia-smi's path; empty when it is not on PATH
  pid_t pid_ = -1;
};

// The duty cycles (share of time with GPU work queued, alone) of the probe's processes, and the
// sets run together: each alone, every pair (with repeats), and triples.
std::vector<std::vector<double>> duty_sets() {
  const std::vector<double> duties = {0.2, 0.4, 0.6, 0.8, 1.0};
  std::vector<std::vector<double>> sets;
  for (double d : duties) sets.push_back({d});
  for (std::size_t i = 0; i < duties.size(); ++i) {
    for (std::size_t j = i; j < duties.size(); ++j) sets.push_back({duties[i], duties[j]});
  }
  for (const auto& t : std::vector<std::vector<double>>{
           {0.2, 0.2, 0.2}, {0.4, 0.4, 0.4}, {0.6, 0.6, 0.6}, {1.0, 1.0, 1.0}, {0.2, 0.6, 1.0}, {0.4, 0.6, 0.8}}) {
    sets.push_back(t);
  }
  return sets;
}

ordered_json measure_duty(const RunOptions& o, const gpu::DeviceInfo& device) {
  ordered_json section;
  const gpu::DutyKernel kernel = gpu::tune_duty_kernel(o.device, o.duty_kernel_ns);
  const int kernels_per_phase = static_cast<int>(std::max<std::int64_t>(
      1, std::llround(static_cast<double>(o.duty_busy_ns) / static_cast<double>(o.duty_kernel_ns))));
  section["kernel_iterations"] = kernel.iterations;
  section["kernel_ns_tuned"] = kernel.kernel_ns;
  section["kernels_per_phase"] = kernels_per_phase;
  section["seconds"] = o.seconds;
  section["cases"] = ordered_json::array();
  section["skipped"] = ordered_json::array();
  TempDir dir;
  SmiSampler smi(dir.path + "/smi.csv");
  if (!smi.available()) {
    section["skipped"].push_back({{"what", "nvidia-smi samples"}, {"reason", "nvidia-smi is not on PATH"}});
  }
  const std::int64_t busy_ns = kernel.kernel_ns * kernels_per_phase;
  const int blocks = device.sm_count * 4;  // as tune_duty_kernel launched them (duty_cycle.cu)
  section["blocks"] = blocks;
  std::uint64_t seed = 1;

  // Runs one set in `mode`; false (with the reason recorded) when a worker failed. `thread_percentage`:
  // the MPS clients' CUDA_MPS_ACTIVE_THREAD_PERCENTAGE, already in `env`; 0 when not set.
  auto run_set = [&](const std::string& mode, const std::vector<double>& duties, bool fixed_host,
                     const Environment& env, int thread_percentage = 0) {
    std::vector<Worker> workers;
    for (std::size_t i = 0; i < duties.size(); ++i) {
      const std::string out = dir.path + "/duty-" + std::to_string(i) + ".json";
      const auto host_ns =
          static_cast<std::int64_t>(std::llround(static_cast<double>(busy_ns) * (1.0 - duties[i]) / duties[i]));
      auto args = base_args("duty", o, out);
      args.insert(args.end(),
                  {"--iterations", std::to_string(kernel.iterations), "--kernels", std::to_string(kernels_per_phase),
                   "--host-ns", std::to_string(host_ns), "--seconds", std::to_string(o.seconds), "--seed",
                   std::to_string(seed++), "--blocks", std::to_string(blocks)});
      if (fixed_host) args.push_back("--fixed-host");
      workers.push_back(spawn(args, out, env));
    }
    const std::string failure =
        run_together(workers, std::chrono::seconds(120), std::chrono::seconds(120 + static_cast<int>(o.seconds)),
                     [&] { smi.start(o.device); });
    smi.stop();
    if (!failure.empty()) {
      section["skipped"].push_back({{"mode", mode}, {"duties", duties}, {"reason", failure}});
      return false;
    }
    ordered_json c;
    c["mode"] = mode;
    c["host_phases"] = fixed_host ? "fixed" : "exponential";
    c["duties"] = duties;
    if (thread_percentage > 0) c["mps_active_thread_percentage"] = thread_percentage;
    c["processes"] = ordered_json::array();
    for (const Worker& w : workers) c["processes"].push_back(read_worker_output(w.out));
    c["nvidia_smi"] = smi.samples();
    section["cases"].push_back(c);
    return true;
  };

  if (o.duty_mps_thread_percentage > 0) {
    // The SM cap with duty cycles (docs/models.md "Duty cycles", MPS): every set with each client
    // capped, after each duty alone uncapped, the reference a capped client's speed is relative to.
    section["skipped"].push_back({{"mode", "processes"}, {"reason", "--mps-thread-percentage: MPS clients only"}});
    MpsDaemon mps(dir.path);
    if (!mps.started()) {
      section["skipped"].push_back({{"mode", "mps"}, {"reason", mps.reason()}});
      return section;
    }
    const int percentage = o.duty_mps_thread_percentage;
    Environment capped = mps.env();
    capped.set.emplace_back("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", std::to_string(percentage));
    std::cerr << "sharesim-calibrate: duty-cycle probe, MPS clients, alone uncapped then capped at " << percentage
              << "%\n";
    for (const auto& set : duty_sets()) {
      if (set.size() == 1 && !run_set("mps", set, false, mps.env())) return section;
    }
    for (const auto& set : duty_sets()) {
      if (!run_set("mps", set, false, capped, percentage)) return section;
    }
    return section;
  }
  for_each_process_mode(o, device, dir.path, section, "duty-cycle probe",
                        [&](const std::string& mode, const Environment& env) {
                          for (const auto& set : duty_sets()) {
                            if (!run_set(mode, set, false, env)) return;
                          }
                          if (mode != "processes") return;
                          // Equal duties with equal host phases: can phases lock into step?
                          for (double d : {0.2, 0.4, 0.6}) {
                            if (!run_set(mode, {d, d}, true, env)) return;
                          }
                        });
  return section;
}

// ---- SM scaling, basics ----

ordered_json measure_scaling(const RunOptions& o, const gpu::DeviceInfo& device) {
  ordered_json section;
  section["total_sms"] = device.sm_count;
  section["seconds"] = o.seconds;
  const std::vector<int> counts = o.sms.empty() ? default_sm_counts(device) : o.sms;
  section["requested_sms"] = counts;
  section["points"] = ordered_json::array();
  section["skipped"] = ordered_json::array();
  for (const std::string& stressor : gpu::stressor_names()) {
    std::cerr << "sharesim-calibrate: SM scaling of " << stressor << "\n";
    for (const gpu::ScalingResult& r : gpu::run_sm_scaling(o.device, stressor, counts, o.seconds)) {
      if (!r.skipped.empty()) {
        section["skipped"].push_back(
            {{"stressor", stressor}, {"requested_sms", r.requested_sms}, {"reason", r.skipped}});
        continue;
      }
      section["points"].push_back({{"stressor", stressor},
                                   {"requested_sms", r.requested_sms},
                                   {"granted_sms", r.granted_sms},
                                   {"throughput", r.throughput}});
    }
  }
  return section;
}

ordered_json measure_basics(const RunOptions& o) {
  std::cerr << "sharesim-calibrate: basics\n";
  const gpu::BasicsResult b = gpu::run_basics(o.device, 10);
  return {{"launch_latency_ns", b.launch_latency_ns},
          {"dram_bandwidth_gbps", b.dram_bandwidth_gbps},
          {"fma_tflops", b.fma_tflops}};
}

}  // namespace

int run_measurements(const std::string& mode, const RunOptions& o, const gpu::DeviceInfo& device) {
  signal(SIGPIPE, SIG_IGN);  // a worker that died must not kill us when we write its start byte
  if (!o.gpu.empty()) require_catalog_gpu(o.gpu, o.catalog_path);
  const std::string gpu_id = o.gpu.empty() ? catalog_id_for(device.name) : o.gpu;
  if (gpu_id.empty()) {
    throw CalibError(
        "--gpu", "",
        "the device \"" + device.name + "\" is not one sharesim knows by name; give its catalog id (sharesim gpus)");
  }
  require_writable_output(o.out);  // main checks it before the device query; again here for other callers
  ordered_json raw;
  raw["format"] = kRawFormat;
  raw["gpu"] = gpu_id;
  raw["date"] = utc_now();
  raw["tool"] = sharesim_version_line("sharesim-calibrate");  // which build measured it
  raw["device"] = {{"name", device.name},
                   {"driver", driver_version(device)},
                   {"runtime", device.runtime},
                   {"compute_capability", std::to_string(device.cc_major) + "." + std::to_string(device.cc_minor)},
                   {"sm_count", device.sm_count},
                   {"l2_bytes", device.l2_bytes},
                   {"memory_bytes", device.memory_bytes},
                   {"compute_mode", device.compute_mode}};
  const bool all = mode == "all";
  struct Section {
    const char* mode;
    const char* key;
    std::function<ordered_json()> measure;
    bool in_all = true;  // the duty-cycle probe validates a model rather than calibrating one: on its own
  };
  const std::vector<Section> plan = {
      {"basics", "basics", [&] { return measure_basics(o); }},
      {"probe", "timeslice", [&] { return measure_timeslice(o, device); }},
      {"scaling", "sm_scaling", [&] { return measure_scaling(o, device); }},
      {"corun", "corun", [&] { return measure_corun(o, device); }},
      {"duty", "duty_cycle", [&] { return measure_duty(o, device); }, false},
  };
  int measured = 0;
  int failed = 0;
  for (const Section& section : plan) {
    if (all ? !section.in_all : mode != section.mode) continue;
    try {
      raw[section.key] = section.measure();
      ++measured;
    } catch (const gpu::GpuError& e) {
      // Keep what the other sections measured: a GPU session is scarce.
      if (!all) throw;
      std::cerr << "sharesim-calibrate: " << section.mode << " failed, continuing: " << e.what() << "\n";
      raw["failed"].push_back({{"mode", section.mode}, {"error", e.what()}});
      ++failed;
    }
  }
  if (measured + failed == 0) throw CalibError("mode", "", "unknown measuring mode \"" + mode + "\"");
  if (measured == 0) throw gpu::GpuError("every measurement failed; nothing written");
  const std::string text = raw.dump(1) + "\n";
  parse_raw(nlohmann::json::parse(text), o.out);  // what we write, fit must be able to read
  write_file_atomically(o.out, text);
  return failed;
}

int run_worker(const WorkerOptions& w) {
  gpu::prepare(w.device);
  if (w.role == "stress") gpu::run_stressors(w.device, {w.stressor}, 0.05);  // allocate and tune before the start
  // Ready; wait for the start byte.
  if (write(STDOUT_FILENO, "R", 1) != 1) return 1;
  char go = 0;
  if (read(STDIN_FILENO, &go, 1) != 1) return 1;
  ordered_json result = ordered_json::object();
  if (w.role == "probe") {
    const gpu::ProbeLog log = gpu::run_timeslice_probe(w.device, w.duration_ns, w.threshold_ns);
    result["window_ns"] = {log.window_begin, log.window_end};
    result["gaps_ns"] = ordered_json::array();
    for (std::size_t i = 0; i + 1 < log.gaps.size(); i += 2)
      result["gaps_ns"].push_back({log.gaps[i], log.gaps[i + 1]});
    result["gaps_lost"] = log.gaps_lost;
  } else if (w.role == "walk") {
    const gpu::WalkLog log = gpu::run_cache_walk(w.device, w.duration_ns, w.threshold_ns, w.buffer_bytes);
    result["walks"] = ordered_json::array();
    for (std::size_t i = 0; i + 2 < log.walks.size(); i += 3) {
      result["walks"].push_back({log.walks[i], log.walks[i + 1], log.walks[i + 2]});
    }
  } else if (w.role == "thrash") {
    gpu::run_cache_thrash(w.device, w.duration_ns);
  } else if (w.role == "duty") {
    gpu::DutyOptions d;
    d.iterations = w.iterations;
    d.kernels_per_phase = w.kernels;
    d.host_mean_ns = w.host_ns;
    d.exponential_host = !w.fixed_host;
    d.duration_ns = static_cast<std::int64_t>(w.seconds * 1e9);
    d.seed = w.seed;
    d.blocks = w.blocks;
    const gpu::DutyLog log = gpu::run_duty_cycle(w.device, d);
    result["host_mean_ns"] = w.host_ns;
    result["window_ns"] = log.window_end - log.window_begin;
    result["cycles"] = log.cycles;
    result["kernels"] = log.kernels;
    result["busy_ns"] = log.busy_ns;
    result["host_ns"] = log.host_ns;
    result["sms_visible"] = log.sms_visible;
  } else if (w.role == "stress") {
    result["throughput"] = gpu::run_stressors(w.device, {w.stressor}, w.seconds).at(0);
  } else {
    throw CalibError("--role", "", "unknown worker role \"" + w.role + "\"");
  }
  write_file_atomically(w.out, result.dump() + "\n");
  return 0;
}

}  // namespace sharesim::calib
