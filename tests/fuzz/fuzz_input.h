#pragma once
// What every fuzz harness shares (docs/reliability.md "Fuzzing"). The loaders read files by
// path, so each input is written to one temporary file per process and read from there. A
// harness calls the code under test and lets InputError pass (a refused input is the right
// answer); anything else escaping, a crash or a sanitizer report is a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "sim/input/input_error.h"

namespace sharesim::fuzz {

// The input as a file named "<tmp>/sharesim-fuzz-<pid><suffix>"; the same path every call.
inline std::string input_file(const std::uint8_t* data, std::size_t size, const char* suffix) {
  const char* dir = std::getenv("TMPDIR");
  const std::string path =
      std::string(dir != nullptr ? dir : "/tmp") + "/sharesim-fuzz-" + std::to_string(getpid()) + suffix;
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) std::abort();  // the harness's own failure, not the input's
  if (size > 0 && std::fwrite(data, 1, size, file) != size) std::abort();
  std::fclose(file);
  return path;
}

inline std::string_view input_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Runs `body`; an InputError is the expected outcome for a bad input.
template <class Body>
void refuse_or_accept(const Body& body) {
  try {
    body();
  } catch (const InputError&) {
  }
}

}  // namespace sharesim::fuzz
