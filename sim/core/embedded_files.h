#pragma once
// A set of data files compiled into the binary (cmake/EmbedFile.cmake, embed_text_files):
// each entry is a file's base name and its text.
#include <string_view>

namespace sharesim::embedded {

struct NamedText {
  const char* name;  // file name without directory and extension
  std::string_view (*text)();
};

}  // namespace sharesim::embedded
