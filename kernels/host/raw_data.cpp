#include "kernels/host/raw_data.h"

#include "kernels/host/json_read.h"
#include "sim/input/json_pointer.h"

namespace sharesim::calib {

namespace {

constexpr std::int64_t kMaxNs = INT64_MAX / 4;

Interval read_interval(const JsonReader& in, const nlohmann::json& pair, const std::string& pointer) {
  in.array(pair, pointer);
  if (pair.size() != 2) in.fail(pointer, "expected [begin_ns, end_ns], found " + pair.dump());
  Interval span{in.integer_value(pair[0], pointer_append(pointer, 0)),
                in.integer_value(pair[1], pointer_append(pointer, 1))};
  if (span.begin < 0 || span.end > kMaxNs || span.end < span.begin) {
    in.fail(pointer, "expected 0 <= begin_ns <= end_ns, found " + pair.dump());
  }
  return span;
}

RawTimeslice read_timeslice(const JsonReader& in, const nlohmann::json& section, const std::string& pointer) {
  in.object(section, pointer);
  RawTimeslice out;
  out.threshold_ns = in.integer_in(section, pointer, "threshold_ns", 2000, 1000000);
  const std::string runs_pointer = pointer_append(pointer, "runs");
  const nlohmann::json& runs = in.array(in.member(section, pointer, "runs"), runs_pointer);
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const std::string run_pointer = pointer_append(runs_pointer, r);
    in.object(runs[r], run_pointer);
    ProbeRun run;
    run.processes = static_cast<int>(in.integer_in(runs[r], run_pointer, "processes", 2, 64));
    const std::string contexts_pointer = pointer_append(run_pointer, "contexts");
    const nlohmann::json& contexts = in.array(in.member(runs[r], run_pointer, "contexts"), contexts_pointer);
    if (contexts.size() != static_cast<std::size_t>(run.processes)) {
      in.fail(contexts_pointer, "expected " + std::to_string(run.processes) +
                                    " context logs (one per process), found " + std::to_string(contexts.size()));
    }
    for (std::size_t c = 0; c < contexts.size(); ++c) {
      const std::string context_pointer = pointer_append(contexts_pointer, c);
      in.object(contexts[c], context_pointer);
      ContextLog log;
      log.window = read_interval(in, in.member(contexts[c], context_pointer, "window_ns"),
                                 pointer_append(context_pointer, "window_ns"));
      const std::string gaps_pointer = pointer_append(context_pointer, "gaps_ns");
      const nlohmann::json& gaps = in.array(in.member(contexts[c], context_pointer, "gaps_ns"), gaps_pointer);
      for (std::size_t g = 0; g < gaps.size(); ++g) {
        const Interval gap = read_interval(in, gaps[g], pointer_append(gaps_pointer, g));
        if (gap.begin < log.window.begin || gap.end > log.window.end) {
          in.fail(pointer_append(gaps_pointer, g), "gap lies outside the context's window_ns " +
                                                       contexts[c]["window_ns"].dump() + ": " + gaps[g].dump());
        }
        log.gaps.push_back(gap);
      }
      run.contexts.push_back(std::move(log));
    }
    out.runs.push_back(std::move(run));
  }
  if (in.has(section, "cache_refill")) {
    const std::string cache_pointer = pointer_append(pointer, "cache_refill");
    const nlohmann::json& cache = in.object(section["cache_refill"], cache_pointer);
    if (in.has(cache, "skipped")) {
      out.cache_refill_skipped = in.string(cache, cache_pointer, "skipped");
    } else {
      const std::string walks_pointer = pointer_append(cache_pointer, "walks");
      const nlohmann::json& walks = in.array(in.member(cache, cache_pointer, "walks"), walks_pointer);
      for (std::size_t w = 0; w < walks.size(); ++w) {
        const std::string walk_pointer = pointer_append(walks_pointer, w);
        in.array(walks[w], walk_pointer);
        if (walks[w].size() != 3)
          in.fail(walk_pointer, "expected [begin_ns, end_ns, after_switch 0|1], found " + walks[w].dump());
        const nlohmann::json pair = {walks[w][0], walks[w][1]};
        Walk walk;
        walk.span = read_interval(in, pair, walk_pointer);
        const std::int64_t flag = in.integer_value(walks[w][2], pointer_append(walk_pointer, 2));
        if (flag != 0 && flag != 1)
          in.fail(pointer_append(walk_pointer, 2), "expected 0 or 1, found " + walks[w][2].dump());
        walk.after_switch = flag == 1;
        out.walks.push_back(walk);
      }
    }
  }
  return out;
}

RawCorun read_corun(const JsonReader& in, const nlohmann::json& section, const std::string& pointer) {
  in.object(section, pointer);
  RawCorun out;
  const std::string stressors_pointer = pointer_append(pointer, "stressors");
  const nlohmann::json& stressors = in.object(in.member(section, pointer, "stressors"), stressors_pointer);
  for (const auto& [name, info] : stressors.items()) {
    const std::string p = pointer_append(stressors_pointer, name);
    in.object(info, p);
    RawStressor s;
    s.unit = in.string(info, p, "unit");
    s.dram_bytes_per_unit = in.number_at_least(info, p, "dram_bytes_per_unit", 0);
    out.stressors[name] = s;
  }
  const std::string cases_pointer = pointer_append(pointer, "cases");
  const nlohmann::json& cases = in.array(in.member(section, pointer, "cases"), cases_pointer);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string p = pointer_append(cases_pointer, i);
    in.object(cases[i], p);
    CorunCase c;
    c.mode = in.string(cases[i], p, "mode");
    if (c.mode != "processes" && c.mode != "mps" && c.mode != "streams") {
      in.fail(pointer_append(p, "mode"), "expected \"processes\", \"mps\" or \"streams\", found \"" + c.mode + "\"");
    }
    const std::string kernels_pointer = pointer_append(p, "kernels");
    const nlohmann::json& kernels = in.array(in.member(cases[i], p, "kernels"), kernels_pointer);
    for (std::size_t k = 0; k < kernels.size(); ++k) {
      if (!kernels[k].is_string() || !out.stressors.contains(kernels[k].get<std::string>())) {
        in.fail(pointer_append(kernels_pointer, k), "expected the name of a stressor listed in " + stressors_pointer +
                                                        ", found " + json_type_name(kernels[k]));
      }
      c.kernels.push_back(kernels[k].get<std::string>());
    }
    if (c.kernels.empty()) in.fail(kernels_pointer, "expected at least one kernel, found none");
    c.throughput = in.number_array(cases[i], p, "throughput", 0);
    if (c.throughput.size() != c.kernels.size()) {
      in.fail(pointer_append(p, "throughput"), "expected " + std::to_string(c.kernels.size()) +
                                                   " throughputs (one per kernel), found " +
                                                   std::to_string(c.throughput.size()));
    }
    out.cases.push_back(std::move(c));
  }
  return out;
}

RawScaling read_scaling(const JsonReader& in, const nlohmann::json& section, const std::string& pointer) {
  in.object(section, pointer);
  RawScaling out;
  out.total_sms = in.integer_in(section, pointer, "total_sms", 1, 100000);
  const std::string points_pointer = pointer_append(pointer, "points");
  const nlohmann::json& points = in.array(in.member(section, pointer, "points"), points_pointer);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::string p = pointer_append(points_pointer, i);
    in.object(points[i], p);
    ScalingPoint point;
    point.stressor = in.string(points[i], p, "stressor");
    point.requested_sms = static_cast<int>(in.integer_in(points[i], p, "requested_sms", 1, out.total_sms));
    point.granted_sms = static_cast<int>(in.integer_in(points[i], p, "granted_sms", 1, out.total_sms));
    point.throughput = in.number(points[i], p, "throughput");
    if (!(point.throughput > 0))
      in.fail(pointer_append(p, "throughput"), "expected a number > 0, found " + points[i]["throughput"].dump());
    out.points.push_back(point);
  }
  return out;
}

RawBasics read_basics(const JsonReader& in, const nlohmann::json& section, const std::string& pointer) {
  in.object(section, pointer);
  RawBasics out;
  out.launch_latency_ns = in.number_array(section, pointer, "launch_latency_ns", 0);
  out.dram_bandwidth_gbps = in.number_array(section, pointer, "dram_bandwidth_gbps", 0);
  out.fma_tflops = in.number_array(section, pointer, "fma_tflops", 0);
  return out;
}

RawDutyCycle read_duty_cycle(const JsonReader& in, const nlohmann::json& section, const std::string& pointer) {
  in.object(section, pointer);
  RawDutyCycle out;
  out.kernel_ns_tuned = in.integer_in(section, pointer, "kernel_ns_tuned", 1, kMaxNs);
  out.kernels_per_phase = in.integer_in(section, pointer, "kernels_per_phase", 1, 1000000);
  out.seconds = in.number_at_least(section, pointer, "seconds", 0);
  const std::string cases_pointer = pointer_append(pointer, "cases");
  const nlohmann::json& cases = in.array(in.member(section, pointer, "cases"), cases_pointer);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string p = pointer_append(cases_pointer, i);
    in.object(cases[i], p);
    DutyCase c;
    c.mode = in.string(cases[i], p, "mode");
    if (c.mode != "processes" && c.mode != "mps") {
      in.fail(pointer_append(p, "mode"), "expected \"processes\" or \"mps\", found \"" + c.mode + "\"");
    }
    c.host_phases = in.string(cases[i], p, "host_phases");
    if (c.host_phases != "exponential" && c.host_phases != "fixed") {
      in.fail(pointer_append(p, "host_phases"),
              "expected \"exponential\" or \"fixed\", found \"" + c.host_phases + "\"");
    }
    if (in.has(cases[i], "mps_active_thread_percentage")) {
      c.thread_percentage = static_cast<int>(in.integer_in(cases[i], p, "mps_active_thread_percentage", 1, 100));
      if (c.mode != "mps") {
        in.fail(pointer_append(p, "mps_active_thread_percentage"),
                "expected a thread percentage only on an \"mps\" case, found one on \"" + c.mode + "\"");
      }
    }
    const std::vector<double> duties = in.number_array(cases[i], p, "duties", 0);
    const std::string processes_pointer = pointer_append(p, "processes");
    const nlohmann::json& processes = in.array(in.member(cases[i], p, "processes"), processes_pointer);
    if (processes.size() != duties.size() || duties.empty()) {
      in.fail(processes_pointer, "expected " + std::to_string(duties.size()) +
                                     " process records (one per duty, at least one), found " +
                                     std::to_string(processes.size()));
    }
    for (std::size_t k = 0; k < processes.size(); ++k) {
      const std::string q = pointer_append(processes_pointer, k);
      in.object(processes[k], q);
      DutyProcess d;
      d.duty = duties[k];
      if (!(d.duty > 0 && d.duty <= 1)) {
        in.fail(pointer_append(pointer_append(p, "duties"), k),
                "expected a duty in (0, 1], found " + std::to_string(d.duty));
      }
      d.host_mean_ns = in.integer_in(processes[k], q, "host_mean_ns", 0, kMaxNs);
      d.window_ns = in.integer_in(processes[k], q, "window_ns", 1, kMaxNs);
      d.cycles = in.integer_in(processes[k], q, "cycles", 1, kMaxNs);
      d.kernels = in.integer_in(processes[k], q, "kernels", 1, kMaxNs);
      d.busy_ns = in.integer_in(processes[k], q, "busy_ns", 1, kMaxNs);
      d.host_ns = in.integer_in(processes[k], q, "host_ns", 0, kMaxNs);
      c.processes.push_back(d);
    }
    const std::string smi_pointer = pointer_append(p, "nvidia_smi");
    const nlohmann::json& smi = in.array(in.member(cases[i], p, "nvidia_smi"), smi_pointer);
    for (std::size_t k = 0; k < smi.size(); ++k) {
      const std::string q = pointer_append(smi_pointer, k);
      in.array(smi[k], q);
      if (smi[k].size() != 3) {
        in.fail(q, "expected [utilization.gpu %, utilization.memory %, memory.used MiB], found " + smi[k].dump());
      }
      c.nvidia_smi.push_back({in.number_value(smi[k][0], pointer_append(q, 0)),
                              in.number_value(smi[k][1], pointer_append(q, 1)),
                              in.number_value(smi[k][2], pointer_append(q, 2))});
    }
    out.cases.push_back(std::move(c));
  }
  return out;
}

}  // namespace

RawData parse_raw(const nlohmann::json& raw, const std::string& file) {
  const JsonReader in(file);
  in.object(raw, "");
  const std::string format = in.string(raw, "", "format");
  if (format != kRawFormat)
    in.fail("/format", "expected \"" + std::string(kRawFormat) + "\", found \"" + format + "\"");
  RawData out;
  out.gpu = in.string(raw, "", "gpu");
  out.date = in.string(raw, "", "date");
  const nlohmann::json& device = in.object(in.member(raw, "", "device"), "/device");
  out.device.name = in.string(device, "/device", "name");
  out.device.driver = in.string(device, "/device", "driver");
  out.device.runtime = in.string(device, "/device", "runtime");
  out.device.compute_capability = in.string(device, "/device", "compute_capability");
  out.device.sm_count = in.integer_in(device, "/device", "sm_count", 1, 100000);
  if (in.has(raw, "timeslice")) out.timeslice = read_timeslice(in, raw["timeslice"], "/timeslice");
  if (in.has(raw, "corun")) out.corun = read_corun(in, raw["corun"], "/corun");
  if (in.has(raw, "sm_scaling")) out.sm_scaling = read_scaling(in, raw["sm_scaling"], "/sm_scaling");
  if (in.has(raw, "basics")) out.basics = read_basics(in, raw["basics"], "/basics");
  if (in.has(raw, "duty_cycle")) out.duty_cycle = read_duty_cycle(in, raw["duty_cycle"], "/duty_cycle");
  if (!out.timeslice && !out.corun && !out.sm_scaling && !out.basics && !out.duty_cycle) {
    in.fail("",
            "no measurement section: expected at least one of \"timeslice\", \"corun\", \"sm_scaling\", "
            "\"basics\", \"duty_cycle\"");
  }
  return out;
}

}  // namespace sharesim::calib
