#pragma once
// JSON pointers (RFC 6901) as plain strings: the "where" of every scenario error, and
// the order in which errors are reported (the first one in the file wins).
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sharesim {

// The whole document's pointer is "" (RFC 6901), which an error message would not show; errors
// about the top level (a missing top-level key, a document that is not an object) name it so.
inline constexpr const char* kTopLevelWhere = "(top level)";

// The "where" of an error at `pointer`: the pointer itself, or kTopLevelWhere for "".
inline std::string where_of_pointer(std::string_view pointer) {
  return pointer.empty() ? std::string(kTopLevelWhere) : std::string(pointer);
}

// base + "/" + token, with '~' and '/' in the token escaped as ~0 and ~1.
std::string pointer_append(std::string_view base, std::string_view token);
std::string pointer_append(std::string_view base, std::size_t index);

// "/a/b~1c" -> {"a", "b/c"}; "" -> {}. Precondition: empty or starts with '/'.
std::vector<std::string> pointer_tokens(std::string_view pointer);

// The array index a token names (RFC 6901: "0", or digits without a leading zero), or nullopt
// ("00", "01", "-1", "x", "").
std::optional<std::size_t> array_index(std::string_view token);
// The problem of a token that names no array index: `expected an array index (0 or digits
// without a leading zero), found "00"`.
std::string array_index_problem(std::string_view token);

// True when `pointer` is `ancestor` or lies inside it ("/a/b" is inside "/a", not inside "/ab").
bool pointer_within(std::string_view pointer, std::string_view ancestor);

// Where `pointer` sits in the document as written: for each step, the member's position
// in its object (documents are kept in file order) or the array index. Comparing two
// keys lexicographically compares places in the file; a container sorts before its
// contents. Steps that do not exist sort last.
std::vector<std::size_t> document_position(const nlohmann::ordered_json& document, std::string_view pointer);

}  // namespace sharesim
