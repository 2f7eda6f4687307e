#pragma once
/// @file
/// @brief "Did you mean …?" suggestions for misspelled names (kernels, parameters, attributes, commands).

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace vg {

/// @brief Edit distance between @p a and @p b, ignoring ASCII case: insertions, deletions, substitutions
///        and transpositions of two neighbouring characters each cost 1 (optimal string alignment).
std::size_t edit_distance(std::string_view a, std::string_view b);

/// @brief The candidate closest to @p name, when it is close enough to be a likely typo: at most
///        max(1, size/3) edits away (size of @p name) and not a complete rewrite. Ties go to the
///        earlier candidate. std::nullopt when nothing is that close.
std::optional<std::string> closest_name(std::string_view name, std::span<const std::string> candidates);

/// @brief "did you mean 'X'?" for the closest candidate (see closest_name), or "" when none is close.
///        Callers append it to their own "unknown …" message.
/// @code
/// std::string msg = "unknown kernel '" + name + "'";
/// if (auto hint = vg::did_you_mean(name, ctx.kernel_names()); !hint.empty()) msg += "; " + hint;
/// @endcode
std::string did_you_mean(std::string_view name, std::span<const std::string> candidates);

}  // namespace vg
