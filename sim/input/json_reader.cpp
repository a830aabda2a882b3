#include "sim/input/json_reader.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <set>
#include <vector>

#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"

namespace sharesim {
namespace {

using Json = nlohmann::ordered_json;

// nlohmann's message is "[json.exception.parse_error.101] parse error at line 3, column 1:
// syntax error while parsing object key - unexpected '}'; expected string literal". The
// place is reported separately (and counted in characters), so keep only the detail.
std::string parse_error_detail(const std::string& message) {
  if (const std::size_t detail = message.find("syntax error"); detail != std::string::npos)
    return message.substr(detail);
  const std::size_t after_place = message.find(": ", message.find("parse error"));
  return after_place == std::string::npos ? message : message.substr(after_place + 2);
}

// Tracks where the parser is (a JSON pointer) so that a repeated key can be named.
class DuplicateKeyGuard {
 public:
  explicit DuplicateKeyGuard(const std::string& origin) : origin_(origin) {}

  std::string current_pointer() const {
    std::string pointer;
    for (const Frame& frame : frames_) {
      pointer = frame.is_object ? pointer_append(pointer, frame.key) : pointer_append(pointer, frame.index);
    }
    return pointer;
  }

  bool operator()(int /*depth*/, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
      case Json::parse_event_t::array_start:
        frames_.push_back({event == Json::parse_event_t::object_start, {}, {}, 0});
        break;
      case Json::parse_event_t::key: {
        Frame& frame = frames_.back();
        frame.key = parsed.get<std::string>();
        if (!frame.keys.insert(frame.key).second) {
          throw InputError(origin_, current_pointer(),
                           "duplicate key " + quote(frame.key) + " (each key may appear once in an object)");
        }
        break;
      }
      case Json::parse_event_t::value:
        finish_element();
        break;
      case Json::parse_event_t::object_end:
      case Json::parse_event_t::array_end:
        frames_.pop_back();
        finish_element();
        break;
    }
    return true;
  }

 private:
  struct Frame {
    bool is_object;
    std::set<std::string> keys;
    std::string key;    // current member's key (objects)
    std::size_t index;  // current element's index (arrays)
  };

  void finish_element() {
    if (!frames_.empty() && !frames_.back().is_object) ++frames_.back().index;
  }

  const std::string& origin_;
  std::vector<Frame> frames_;
};

}  // namespace

std::string regular_file_problem(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (ec) return ec.message();
  if (std::filesystem::is_regular_file(status)) return "";
  if (std::filesystem::is_directory(status)) return "is a directory, not a file";
  return "is a FIFO, socket or device, not a regular file";
}

void require_regular_file(const std::string& path) {
  const std::string problem = regular_file_problem(path);
  if (!problem.empty()) throw InputError(path, "", "cannot read file: " + problem);
}

std::string read_text_file(const std::string& path) {
  require_regular_file(path);
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw InputError(path, "", std::string("cannot read file: ") + std::strerror(errno));
  std::string text;
  char buffer[1 << 16];
  while (true) {
    const std::size_t count = std::fread(buffer, 1, sizeof buffer, file.get());
    text.append(buffer, count);
    if (count < sizeof buffer) break;
  }
  // Reading a directory opens fine on Linux and fails here with EISDIR.
  if (std::ferror(file.get())) throw InputError(path, "", std::string("cannot read file: ") + std::strerror(errno));
  return text;
}

std::string line_column(std::string_view text, std::size_t offset, std::size_t first_line) {
  offset = std::min(offset, text.size());
  std::size_t line = first_line, column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '\n') {
      ++line;
      column = 1;
    } else if ((byte & 0xC0) != 0x80) {  // UTF-8 continuation bytes do not start a character
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

Json parse_json_text(std::string_view text, const std::string& origin, std::size_t first_line) {
  DuplicateKeyGuard guard(origin);
  try {
    // The whole text is one value: anything after it but white space is a syntax error.
    return Json::parse(text, std::ref(guard));
  } catch (const Json::parse_error& error) {
    // error.byte is the 1-based position of the character the parser stopped at.
    const std::size_t offset = error.byte == 0 ? 0 : error.byte - 1;
    throw InputError(origin, line_column(text, offset, first_line), parse_error_detail(error.what()));
  } catch (const Json::out_of_range& error) {
    // A number beyond a double (1e400): nlohmann stops without a position, but the guard knows
    // which member it was reading.
    const std::string message = error.what();
    const std::size_t token = message.find('\'');
    const std::string found = token == std::string::npos ? "a number" : message.substr(token);
    throw InputError(origin, guard.current_pointer(),
                     "expected a number within the range of a double (about 1.8e308), found " + found);
  }
}

}  // namespace sharesim
