#include "sim/scenario/scenario_overrides.h"

#include <optional>

#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"

namespace sharesim {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kOverrideOrigin = "--set";

std::vector<std::string> override_tokens(const Override& override_spec) {
  const std::string& path = override_spec.path;
  if (path.empty() || path == "/")
    throw InputError(kOverrideOrigin, path, "empty path; write it as a.b.0.c or /a/b/0/c");
  if (path.front() == '/') return pointer_tokens(path);
  std::vector<std::string> tokens;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    tokens.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  for (const std::string& token : tokens) {
    if (token.empty()) {
      throw InputError(kOverrideOrigin, path,
                       "empty key in the path (keys that contain '.' need the /json/pointer form)");
    }
  }
  return tokens;
}

// The user's value: JSON when it parses ("7", "true", "[1,2]", "{\"policy\":\"mps\"}"),
// otherwise the text itself, so that `until=30d` needs no quoting.
// Command-line bytes may be in any encoding; JSON text must be UTF-8, and a bad string
// would only fail later, when summary.json echoes the document.
bool is_utf8(const std::string& text) {
  try {
    (void)Json(text).dump();
    return true;
  } catch (const Json::type_error&) {
    return false;
  }
}

Json override_value(const std::string& text) {
  Json value = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) return Json(text);
  return value;
}

// Steps 0..last of the path, written the way the user wrote the path.
std::string path_prefix(const Override& override_spec, const std::vector<std::string>& tokens, std::size_t last) {
  const bool pointer_form = override_spec.path.front() == '/';
  std::string prefix;
  for (std::size_t i = 0; i <= last; ++i) {
    prefix = pointer_form ? pointer_append(prefix, tokens[i]) : (i == 0 ? tokens[i] : prefix + "." + tokens[i]);
  }
  return prefix;
}

std::string kind_of(const Json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  if (value.is_string()) return "a string";
  if (value.is_boolean()) return "a boolean";
  if (value.is_null()) return "null";
  return "a number";
}

}  // namespace

std::string override_pointer(const Override& override_spec) {
  std::string pointer;
  for (const std::string& token : override_tokens(override_spec)) pointer = pointer_append(pointer, token);
  return pointer;
}

std::string apply_override(Json& document, const Override& override_spec) {
  const std::vector<std::string> tokens = override_tokens(override_spec);
  const auto fail = [&](const std::string& problem) { throw InputError(kOverrideOrigin, override_spec.path, problem); };
  if (!is_utf8(override_spec.path) || !is_utf8(override_spec.value)) fail("expected UTF-8 text, found other bytes");
  Json* node = &document;
  std::string pointer;  // of *node
  std::string written;  // the shallowest key the override created, else its whole path
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& token = tokens[i];
    const bool last = i + 1 == tokens.size();
    if (node->is_array()) {
      const std::optional<std::size_t> parsed = array_index(token);
      if (!parsed) {
        fail(array_index_problem(token) + "; " + (pointer.empty() ? "the document" : pointer) + " is an array");
      }
      const std::size_t index = *parsed;
      if (index >= node->size()) {
        fail("index " + token + " is past the end of " + (pointer.empty() ? "the document" : pointer) + ", which has " +
             count_of(static_cast<long long>(node->size()), "element", "elements"));
      }
      node = &(*node)[index];
    } else if (node->is_object()) {
      if (!node->contains(token) && written.empty()) written = pointer_append(pointer, token);
      if (!node->contains(token) && !last) {
        // A missing section on the way is created as an object; a numeric key next means
        // the user expected an array here, which cannot be conjured element by element.
        const std::string& next = tokens[i + 1];
        if (!next.empty() && next.find_first_not_of("0123456789") == std::string::npos) {
          fail(pointer_append(pointer, token) + " does not exist, so it has no element " + next +
               "; set the whole array instead, e.g. --set '" + path_prefix(override_spec, tokens, i) + "=[...]'");
        }
        (*node)[token] = Json::object();
      }
      node = &(*node)[token];
    } else {
      fail("cannot set " + quote(token) + " inside " + (pointer.empty() ? "the document" : pointer) + ", which is " +
           kind_of(*node) + ", not an object");
    }
    pointer = pointer_append(pointer, token);
  }
  *node = override_value(override_spec.value);
  return written.empty() ? pointer : written;
}

Override parse_override(std::string_view assignment) {
  const std::size_t equals = assignment.find('=');
  if (equals == std::string_view::npos) {
    throw InputError(kOverrideOrigin, std::string(assignment),
                     "expected PATH=VALUE, e.g. workload.generators.0.count=500");
  }
  Override override_spec{std::string(assignment.substr(0, equals)), std::string(assignment.substr(equals + 1))};
  override_tokens(override_spec);  // reject an empty path here, where the user typed it
  return override_spec;
}

}  // namespace sharesim
