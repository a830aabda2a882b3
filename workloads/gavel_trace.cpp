#include "workloads/gavel_trace.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <nlohmann/json.hpp>
#include <vector>

#include "sim/core/checked_conversion.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_reader.h"
#include "workloads/csv_reader.h"

namespace sharesim {
namespace {

// "('ResNet-18 (batch size 16)', 1)" -> ("ResNet-18 (batch size 16)", 1)
bool parse_job_key(const std::string& key, std::string& job_type, std::int64_t& scale) {
  const std::size_t open = key.find("('");
  const std::size_t close = key.rfind("', ");
  if (open != 0 || close == std::string::npos || close < 2 || key.back() != ')') return false;
  job_type = key.substr(2, close - 2);
  const char* begin = key.data() + close + 3;
  const char* end = key.data() + key.size() - 1;
  const auto [ptr, ec] = std::from_chars(begin, end, scale);
  return ec == std::errc() && ptr == end && scale >= 1;
}

}  // namespace

GavelThroughputs read_gavel_throughputs(const std::string& path, const std::string& worker_type) {
  const nlohmann::json doc = parse_json_text(read_text_file(path), path);
  if (!doc.is_object())
    throw InputError(path, "/", std::string("expected an object of worker types, found ") + doc.type_name());
  const auto worker = doc.find(worker_type);
  if (worker == doc.end() || !worker->is_object()) {
    std::vector<std::string> names;
    for (const auto& [name, value] : doc.items()) names.push_back(name);
    throw InputError(path, "/", "expected a worker type " + quote(worker_type) + ", found only " + quoted_list(names));
  }
  GavelThroughputs out;
  for (const auto& [key, entry] : worker->items()) {
    std::string job_type;
    std::int64_t scale = 0;
    const std::string pointer = "/" + worker_type + "/" + key;
    if (!parse_job_key(key, job_type, scale)) {
      throw InputError(path, pointer, "expected a key like \"('ResNet-18 (batch size 16)', 1)\", found " + quote(key));
    }
    const auto alone = entry.find("null");
    if (alone == entry.end() || !alone->is_number() || alone->get<double>() <= 0) {
      throw InputError(path, pointer + "/null", "expected the throughput alone (a number > 0)");
    }
    out[{job_type, scale}] = alone->get<double>();
  }
  return out;
}

GavelTraceReader::GavelTraceReader(const std::string& path, GavelThroughputs throughputs, std::string worker_type)
    : path_(path),
      file_((require_regular_file(path), path)),  // a directory or a FIFO is no trace (docs/reliability.md)
      throughputs_(std::move(throughputs)),
      worker_type_(std::move(worker_type)) {
  if (!file_) throw InputError(path, "", std::string("cannot read file: ") + std::strerror(errno));
}

void GavelTraceReader::fail(const std::string& column, const std::string& problem) const {
  throw InputError(path_, "line " + std::to_string(line_number_) + ", column " + column, problem);
}

bool GavelTraceReader::next(TraceRecord& out) {
  std::string line;
  while (std::getline(file_, line)) {
    ++line_number_;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line_number_ == 1) strip_byte_order_mark(line);
    if (line.empty()) continue;
    std::vector<std::string> fields;
    std::size_t start = 0;
    while (true) {
      const std::size_t tab = line.find('\t', start);
      fields.push_back(line.substr(start, tab - start));
      if (tab == std::string::npos) break;
      start = tab + 1;
    }
    std::size_t job_type = 0, total_steps = 0, arrival = 0, scale = 0;
    switch (fields.size()) {
      case 7:
        total_steps = 4, arrival = 5, scale = 6;
        break;
      case 9:
        total_steps = 4, scale = 5, arrival = 8;
        break;
      case 10:
        total_steps = 5, scale = 6, arrival = 9;
        break;
      default:
        throw InputError(
            path_, "line " + std::to_string(line_number_),
            "expected 7, 9 or 10 tab-separated fields (Gavel's trace layouts), found " + std::to_string(fields.size()));
    }
    out = TraceRecord{};
    out.line = line_number_;
    out.name = fields[job_type];
    std::int64_t steps = 0;
    {
      const std::string& t = fields[total_steps];
      const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), steps);
      if (ec != std::errc() || ptr != t.data() + t.size() || steps < 0) {
        fail("total_steps", "expected an integer >= 0, found " + quote(t));
      }
    }
    std::int64_t scale_factor = 0;
    {
      const std::string& t = fields[scale];
      const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), scale_factor);
      if (ec != std::errc() || ptr != t.data() + t.size() || scale_factor < 1 || scale_factor > 4096) {
        fail("scale_factor", "expected an integer from 1 to 4096, found " + quote(t));
      }
    }
    const auto submit = parse_decimal_seconds(fields[arrival]);
    if (!submit)
      fail("arrival_time", std::string("expected ") + kDecimalSecondsExpected + ", found " + quote(fields[arrival]));
    const auto it = throughputs_.find({fields[job_type], scale_factor});
    if (it == throughputs_.end()) {
      fail("job_type", "no throughput for (" + quote(fields[job_type]) + ", " + std::to_string(scale_factor) +
                           ") on worker type " + quote(worker_type_) + " in the throughputs file");
    }
    out.submit = *submit;
    // Many steps at a low throughput may take longer than a SimTime holds (seconds_to_time
    // would saturate at "never").
    const double seconds = static_cast<double>(steps) / it->second;
    const std::optional<SimTime> duration = checked_seconds_to_time(seconds);
    if (!duration) {
      fail("total_steps", "expected a run time (total_steps / " + format_number(it->second) + " steps/s on " +
                              quote(worker_type_) + ") within " + std::to_string(kMaxTimeSeconds) +
                              " s (about 292 years, what int64 nanoseconds hold), found " + format_number(seconds) +
                              " s from " + fields[total_steps] + " steps");
    }
    out.duration = *duration;
    out.pods = static_cast<std::uint32_t>(scale_factor);
    out.gpus_per_pod = 1;
    return true;
  }
  return false;
}

}  // namespace sharesim
