#pragma once
// "Did you mean" suggestions for misspelt keys, enum values and GPU model ids.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sharesim {

// Edit distance counting insertions, deletions, substitutions and swaps of two adjacent
// characters (optimal string alignment), so "cpu_mili" is 1 from "cpu_milli" and
// "gpsu" 1 from "gpus".
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word`, compared case-insensitively, when it is close enough
// to be a likely typo: distance <= max(2, length / 3) and less than the word's length
// (so "cv" never suggests "id"); failing that, the first candidate that starts with the
// word, for truncated ids ("H100" -> "H100-80GB"). Ties go to the earlier candidate.
std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace sharesim
