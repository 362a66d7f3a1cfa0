// SPDX-License-Identifier: MIT
#pragma once

// One memory budget for what the tools build from a file or a command line: a model's JSON, the
// tensors of a run, an op's outputs. Checked before the memory is taken, so a hostile file or a
// mistyped shape is one line naming what is too big, not an OOM (docs/memory-budget.md).

#include <cstdint>      // std::uint64_t
#include <string>       // std::string
#include <string_view>  // std::string_view

namespace rknnop::host {

/// The budget when neither --memory-limit nor RKNNOP_MEMORY_LIMIT sets one: 2 GiB.
inline constexpr std::uint64_t default_memory_budget = std::uint64_t{2} << 30;

/// The budget in bytes: set_memory_budget's, else RKNNOP_MEMORY_LIMIT's (read once), else the default.
/// Throws rknnop::host::error when RKNNOP_MEMORY_LIMIT is not a size.
[[nodiscard]] std::uint64_t memory_budget();
void set_memory_budget(std::uint64_t bytes) noexcept;
/// True when the budget was given (set_memory_budget or RKNNOP_MEMORY_LIMIT), not the default: the
/// readers then allow what is within it rather than what the input's size suggests.
[[nodiscard]] bool memory_budget_given();

/// "512M", "2G", "1.5G", "65536" (bytes; K, M, G, T are powers of 1024, an optional "iB"/"B"
/// after them). Throws naming `what` when `text` is not a size above zero.
[[nodiscard]] std::uint64_t parse_memory_size(std::string_view text, std::string_view what);

/// "2 GiB", "512 MiB", "100 bytes": a size as the messages print it.
[[nodiscard]] std::string memory_size_text(std::uint64_t bytes);

/// Throws "<what> needs <bytes> ... over the memory budget of ..." when `bytes` exceeds the budget.
void check_memory(std::uint64_t bytes, std::string_view what);

}  // namespace rknnop::host
