#include "sim/input/json_pointer.h"

#include <charconv>
#include <limits>

#include "sim/input/error_text.h"

namespace sharesim {

std::string pointer_append(std::string_view base, std::string_view token) {
  std::string pointer(base);
  pointer += '/';
  for (char c : token) {
    if (c == '~') {
      pointer += "~0";
    } else if (c == '/') {
      pointer += "~1";
    } else {
      pointer += c;
    }
  }
  return pointer;
}

std::string pointer_append(std::string_view base, std::size_t index) {
  return pointer_append(base, std::to_string(index));
}

std::vector<std::string> pointer_tokens(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  std::size_t start = 1;  // skip the leading '/'
  while (true) {
    const std::size_t end = pointer.find('/', start);
    const std::string_view raw =
        pointer.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    std::string token;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '~' && i + 1 < raw.size() && (raw[i + 1] == '0' || raw[i + 1] == '1')) {
        token += raw[i + 1] == '0' ? '~' : '/';
        ++i;
      } else {
        token += raw[i];
      }
    }
    tokens.push_back(std::move(token));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return tokens;
}

std::optional<std::size_t> array_index(std::string_view token) {
  if (token.empty() || (token.size() > 1 && token.front() == '0')) return std::nullopt;
  std::size_t index = 0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), index);
  if (error != std::errc{} || end != token.data() + token.size()) return std::nullopt;
  return index;
}

std::string array_index_problem(std::string_view token) {
  return "expected an array index (0 or digits without a leading zero), found " + quote(std::string(token));
}

bool pointer_within(std::string_view pointer, std::string_view ancestor) {
  if (pointer.size() < ancestor.size() || pointer.substr(0, ancestor.size()) != ancestor) return false;
  return pointer.size() == ancestor.size() || pointer[ancestor.size()] == '/';
}

std::vector<std::size_t> document_position(const nlohmann::ordered_json& document, std::string_view pointer) {
  constexpr std::size_t kMissing = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> position;
  const nlohmann::ordered_json* node = &document;
  for (const std::string& token : pointer_tokens(pointer)) {
    if (node == nullptr) {
      position.push_back(kMissing);
      continue;
    }
    const nlohmann::ordered_json* child = nullptr;
    std::size_t step = kMissing;
    if (node->is_object()) {
      std::size_t member_index = 0;
      for (auto it = node->begin(); it != node->end(); ++it, ++member_index) {
        if (it.key() == token) {
          step = member_index;
          child = &it.value();
          break;
        }
      }
    } else if (node->is_array()) {
      if (const std::optional<std::size_t> index = array_index(token); index && *index < node->size()) {
        step = *index;
        child = &(*node)[*index];
      }
    }
    position.push_back(step);
    node = child;
  }
  return position;
}

}  // namespace sharesim
