#pragma once
// Reading JSON that a person wrote (scenario files, --set values are parsed elsewhere):
// syntax errors become InputError with a 1-based LINE:COLUMN, and a key written twice in
// one object is an error rather than the silent last-one-wins of most parsers.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace sharesim {

// "" when `path` names a regular file (or a link to one); otherwise what it is instead
// ("is a directory", "is a FIFO or device, not a regular file", "does not exist"). A directory
// would read as an empty file and a FIFO would block forever.
std::string regular_file_problem(const std::string& path);
// Throws InputError(path, "", "cannot read file: <problem>") unless regular_file_problem is "".
void require_regular_file(const std::string& path);

// Whole file as text. Throws InputError(path, "", "cannot read file: <strerror>").
std::string read_text_file(const std::string& path);

// Parses `text`, keeping objects in the order written (errors are reported in document
// order). Throws InputError(origin, "LINE:COLUMN", "syntax error while parsing ...") or
// InputError(origin, "/json/pointer", "duplicate key ..."). The text must be one JSON value
// (trailing content is an error); a number that overflows a double is an InputError at its
// JSON pointer. `first_line` is the line number of the text's first line (for a piece of a
// larger file).
nlohmann::ordered_json parse_json_text(std::string_view text, const std::string& origin, std::size_t first_line = 1);

// 1-based line and column (counted in characters, not bytes) of the byte at `offset`
// (0-based); an offset at or past the end names the place just after the last character.
std::string line_column(std::string_view text, std::size_t offset, std::size_t first_line = 1);

}  // namespace sharesim
