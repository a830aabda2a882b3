#include "workloads/philly_trace.h"

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string_view>
#include <utility>

#include "sim/core/checked_conversion.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_reader.h"
#include "workloads/csv_reader.h"

namespace sharesim {
namespace {

// What a JSON value of the wrong type is, for "found ...": its type and, if short, its text.
std::string json_found(const nlohmann::json& value) {
  const std::string text = value.dump();
  const std::string type = value.is_number()    ? "a number"
                           : value.is_string()  ? "a string"
                           : value.is_boolean() ? "a boolean"
                           : value.is_array()   ? "an array"
                           : value.is_object()  ? "an object"
                                                : "null";
  return value.is_null() ? type : type + (text.size() <= 40 ? " " + text : "");
}

}  // namespace

PhillyTraceReader::PhillyTraceReader(const std::string& path) : path_(path), file_((require_regular_file(path), path)) {
  if (!file_) throw InputError(path, "", std::string("cannot read file: ") + std::strerror(errno));
  // A file saved with a byte order mark (as the CSV readers allow, csv_reader.h) starts after it.
  char head[kByteOrderMark.size()];
  std::streambuf* buffer = file_.rdbuf();
  if (buffer->sgetn(head, sizeof head) != sizeof head || std::string_view(head, sizeof head) != kByteOrderMark) {
    buffer->pubseekpos(0);
  }
}

bool PhillyTraceReader::next_object(std::string& text, std::size_t& line) {
  text.clear();
  int depth = 0;
  bool in_string = false, escaped = false;
  std::streambuf* buffer = file_.rdbuf();
  for (int c = buffer->sbumpc(); c != std::char_traits<char>::eof(); c = buffer->sbumpc()) {
    const char ch = static_cast<char>(c);
    if (depth == 0) {
      // Between jobs: white space and the array's punctuation, in the order JSON allows.
      if (ch == '\n') ++line_number_;
      if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n') continue;
      if (ch == '[' && place_ == ArrayPlace::Before) {
        place_ = ArrayPlace::FirstJobOrEnd;
      } else if (ch == '{' && (place_ == ArrayPlace::FirstJobOrEnd || place_ == ArrayPlace::Job)) {
        line = line_number_;
        depth = 1;
        text += ch;
      } else if (ch == ',' && place_ == ArrayPlace::CommaOrEnd) {
        place_ = ArrayPlace::Job;
      } else if (ch == ']' && (place_ == ArrayPlace::FirstJobOrEnd || place_ == ArrayPlace::CommaOrEnd)) {
        place_ = ArrayPlace::After;
      } else {
        throw InputError(path_, "line " + std::to_string(line_number_),
                         "expected " + expected_between_jobs() + ", found " + quote(std::string(1, ch)));
      }
      continue;
    }
    text += ch;
    if (ch == '\n') ++line_number_;
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (ch == '\\') {
        escaped = true;
      } else if (ch == '"') {
        in_string = false;
      }
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '{' || ch == '[') {
      ++depth;
    } else if (ch == '}' || ch == ']') {
      if (--depth == 0) {
        place_ = ArrayPlace::CommaOrEnd;
        return true;
      }
    }
  }
  if (depth != 0) {
    throw InputError(path_, "line " + std::to_string(line),
                     "expected a complete JSON object, found the end of the file");
  }
  if (place_ != ArrayPlace::After) {
    throw InputError(path_, "line " + std::to_string(line_number_),
                     "expected " + expected_between_jobs() + ", found the end of the file");
  }
  return false;
}

std::string PhillyTraceReader::expected_between_jobs() const {
  switch (place_) {
    case ArrayPlace::Before:
      return "a JSON array of job objects ('[')";
    case ArrayPlace::FirstJobOrEnd:
      return "a job object or the end of the array (']')";
    case ArrayPlace::CommaOrEnd:
      return "',' or the end of the array (']')";
    case ArrayPlace::Job:
      return "a job object";
    case ArrayPlace::After:
      break;
  }
  return "nothing after the array";
}

bool PhillyTraceReader::next(TraceRecord& out) {
  std::string text;
  std::size_t line = 0;
  if (!next_object(text, line)) return false;
  const std::string at = "line " + std::to_string(line);
  const auto fail = [&](const std::string& key, const std::string& problem) {
    throw InputError(path_, at + ", column " + key, problem);
  };
  const nlohmann::json job = parse_json_text(text, path_, line);
  out = TraceRecord{};
  out.line = line;
  if (const auto id = job.find("jobid"); id != job.end() && id->is_string()) out.name = id->get<std::string>();
  const auto submitted = job.find("submitted_time");
  if (submitted == job.end()) fail("submitted_time", "expected a time text \"YYYY-MM-DD HH:MM:SS\", found none");
  if (!submitted->is_string()) {
    fail("submitted_time", "expected a time text \"YYYY-MM-DD HH:MM:SS\", found " + json_found(*submitted));
  }
  const auto submit = parse_calendar_seconds(submitted->get<std::string>());
  if (!submit)
    fail("submitted_time", "expected \"YYYY-MM-DD HH:MM:SS\", found " + quote(submitted->get<std::string>()));
  out.submit = calendar_time(*submit, path_, at + ", column submitted_time");
  const auto attempts = job.find("attempts");
  if (attempts == job.end()) fail("attempts", "expected a list of attempts, found none");
  if (!attempts->is_array()) fail("attempts", "expected a list of attempts, found " + json_found(*attempts));
  // Work: the time the job held its GPUs, summed over its attempts.
  SimTime work = 0;
  bool ran = false;
  std::size_t machines = 0, total_gpus = 0, per_machine = 0;
  bool equal_machines = true;
  for (std::size_t i = 0; i < attempts->size(); ++i) {
    const nlohmann::json& attempt = (*attempts)[i];
    const auto time_of = [&](const char* key) -> std::optional<std::int64_t> {
      const auto it = attempt.find(key);
      if (it == attempt.end() || it->is_null()) return std::nullopt;
      if (!it->is_string()) {
        fail("attempts", "expected the " + std::string(key) + " of attempt " + std::to_string(i) +
                             " as a time text \"YYYY-MM-DD HH:MM:SS\" or None, found " + json_found(*it));
      }
      return parse_calendar_seconds(it->get<std::string>());
    };
    const auto start = time_of("start_time"), end = time_of("end_time");
    if (i + 1 == attempts->size() && start && !end) {
      fail("attempts", "expected a finished job, found one still running when the trace was taken (end_time None)");
    }
    if (!start || !end) continue;  // "may have no recorded start_time and/or end_time" (README)
    if (*end < *start) fail("attempts", "expected end_time >= start_time in attempt " + std::to_string(i));
    const std::optional<SimTime> sum = checked_add(work, calendar_time(*end, path_, at + ", column attempts") -
                                                             calendar_time(*start, path_, at + ", column attempts"));
    if (!sum) fail("attempts", "expected the attempts' total time within 292 years, found more");
    work = *sum;
    ran = true;
    const auto detail = attempt.find("detail");
    if (detail != attempt.end() && !detail->is_array()) {
      fail("attempts", "expected the detail of attempt " + std::to_string(i) + " as a list of machines, found " +
                           json_found(*detail));
    }
    if (detail != attempt.end()) {
      machines = 0, total_gpus = 0, per_machine = 0, equal_machines = true;
      for (const nlohmann::json& machine : *detail) {
        const auto gpus = machine.find("gpus");
        // "gpus" lists a machine's GPU ids; anything else is no count of GPUs.
        if (gpus != machine.end() && !gpus->is_array()) {
          fail("attempts", "expected the \"gpus\" of a machine in attempt " + std::to_string(i) +
                               "'s detail as a list of GPU ids, found " + json_found(*gpus));
        }
        const std::size_t n = gpus != machine.end() ? gpus->size() : 0;
        if (std::cmp_greater(n, kMaxTraceGpusPerPod)) {
          fail("attempts", "expected at most " + std::to_string(kMaxTraceGpusPerPod) +
                               " GPUs on a machine in attempt " + std::to_string(i) +
                               "'s detail (one pod per machine), found " + std::to_string(n));
        }
        if (machines > 0 && n != per_machine) equal_machines = false;
        per_machine = n;
        total_gpus += n;
        ++machines;
      }
    }
  }
  if (!ran) fail("attempts", "expected an attempt with a start_time and an end_time, found none (the job never ran)");
  if (total_gpus == 0) fail("attempts", "expected the GPUs of an attempt in its detail, found none");
  out.duration = work;
  if (equal_machines) {
    out.pods = static_cast<std::uint32_t>(machines);
    out.gpus_per_pod = static_cast<std::int64_t>(per_machine);
  } else {
    // Uneven machines cannot be a gang of identical pods: one pod per GPU instead.
    out.pods = static_cast<std::uint32_t>(total_gpus);
    out.gpus_per_pod = 1;
  }
  return true;
}

}  // namespace sharesim
