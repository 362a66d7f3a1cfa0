// SPDX-License-Identifier: MIT
#include "rknn/rknn_json.hpp"

#include "rknnop/host/error.hpp"
#include "rknnop/host/memory_budget.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace rknnop::host::rknn_json {

std::string quote(std::string_view text) {
  constexpr std::size_t max_quoted = 60;
  return text.size() <= max_quoted ? fmt::format("'{}'", text) : fmt::format("'{}...'", text.substr(0, max_quoted));
}

namespace {

// An object's keys by hash, for duplicate checks in linear time: open addressing over the members'
// indices, 8 bytes a slot at most half full (a node-based std::unordered_set<std::string> spent most
// of a 1M-key object's parse in cache misses). The keys themselves stay in the members.
class key_table {
public:
  // Enters `key`, which becomes member `index`; false when a member before it has the same key.
  bool insert(const json::object_t& members, std::string_view key, std::size_t index) {
    if ((used_ + 1) * 2 > slots_.size()) grow();
    const auto tag = static_cast<std::uint32_t>(std::hash<std::string_view>{}(key));
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t at = tag & mask;; at = (at + 1) & mask) {
      slot& s = slots_[at];
      if (s.index_plus_one == 0) {
        s = {tag, static_cast<std::uint32_t>(index + 1)};
        ++used_;
        return true;
      }
      if (s.tag == tag && (members.begin() + s.index_plus_one - 1)->first == key) return false;
    }
  }

private:
  struct slot {
    std::uint32_t tag = 0;             // the key's hash, low 32 bits
    std::uint32_t index_plus_one = 0;  // 0: empty
  };
  void grow() {
    std::vector<slot> old = std::exchange(slots_, std::vector<slot>(std::max<std::size_t>(64, slots_.size() * 2)));
    const std::size_t mask = slots_.size() - 1;
    for (const slot& s : old) {
      if (s.index_plus_one == 0) continue;
      std::size_t at = s.tag & mask;
      while (slots_[at].index_plus_one != 0) at = (at + 1) & mask;
      slots_[at] = s;
    }
  }
  std::vector<slot> slots_;
  std::size_t used_ = 0;
};

// Builds the DOM from nlohmann's SAX events in time linear in the text: members are appended
// (ordered_json's own insert searches the object's keys), duplicate keys are found through a hash
// set once an object grows past a few keys, the depth is the stack's size (the callback parser
// rescans), and the memory the DOM takes is estimated as it grows and capped.
class dom_builder {
public:
  dom_builder(json& root, const std::string& where, std::uint64_t memory_cap)
      : root_(root), where_(where), memory_cap_(memory_cap) {}

  bool null() { return add(json(nullptr), 0); }
  bool boolean(bool v) { return add(json(v), 0); }
  bool number_integer(json::number_integer_t v) { return add(json(v), 0); }
  bool number_unsigned(json::number_unsigned_t v) { return add(json(v), 0); }
  bool number_float(json::number_float_t v, const std::string& /*text*/) { return add(json(v), 0); }
  bool string(std::string& s) {  // a string value is a std::string on the heap, its text beside it when long
    const std::size_t heap = sizeof(std::string) + (s.size() > 15 ? s.size() + 1 : 0);
    return add(json(std::move(s)), heap);
  }
  bool binary(json::binary_t& /*bytes*/) { return add(json(nullptr), 0); }  // not in JSON text
  bool start_object(std::size_t /*elements*/) { return open(json::object()); }
  bool start_array(std::size_t /*elements*/) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& k) {
    frame& f = stack_.back();
    auto& members = f.value->get_ref<json::object_t&>();
    bool duplicate = false;
    if (f.keys) {
      duplicate = !f.keys->insert(members, k, members.size());
    } else {
      duplicate = std::any_of(members.begin(), members.end(), [&](const auto& m) { return m.first == k; });
      if (!duplicate && members.size() + 1 >= hashed_from) {
        f.keys = std::make_unique<key_table>();
        for (std::size_t i = 0; i < members.size(); ++i)
          (void)f.keys->insert(members, (members.begin() + static_cast<std::ptrdiff_t>(i))->first, i);
        (void)f.keys->insert(members, k, members.size());
      }
    }
    if (duplicate)
      throw error(fmt::format("{}: invalid JSON: the key {} appears twice in one object", where_, quote(k)));
    charge(growth * sizeof(std::pair<const std::string, json>) + (k.size() > 15 ? k.size() + 1 : 0));
    f.key = std::move(k);
    return true;
  }

  bool parse_error(std::size_t /*position*/, const std::string& /*token*/, const json::exception& e) {
    std::string_view what = e.what();
    if (const auto bracket = what.find("] "); what.starts_with("[json.exception") && bracket != std::string_view::npos)
      what.remove_prefix(bracket + 2);
    throw error(fmt::format("{}: invalid JSON: {}", where_, what));
  }

private:
  static constexpr std::size_t hashed_from = 16;      // keys; fewer are compared in place
  static constexpr std::size_t container_bytes = 32;  // a vector's header, as malloc hands it out
  // A container's elements while it grows: capacity up to twice the size, and the old buffer
  // beside the new one while it moves (measured: 146 MB for 72 MiB counted once).
  static constexpr std::size_t growth = 2;

  struct frame {
    json* value;
    std::string key;  // an object's member being read
    std::unique_ptr<key_table> keys;
  };

  void charge(std::uint64_t bytes) {
    used_ += bytes;
    if (used_ <= memory_cap_) return;
    if (memory_budget_given() || memory_cap_ == memory_budget())
      throw error(
          fmt::format("{}: the JSON takes more than the memory budget of {} (--memory-limit or "
                      "RKNNOP_MEMORY_LIMIT)",
                      where_, memory_size_text(memory_cap_)));
    throw error(fmt::format(
        "{}: the JSON takes more than {} in memory, more than rknnop allows for {} bytes of text ({} plus {} per "
        "byte; a memory budget given with --memory-limit or RKNNOP_MEMORY_LIMIT allows up to the budget)",
        where_, memory_size_text(memory_cap_), text_size_, memory_size_text(json_memory_floor), json_memory_per_byte));
  }

  json* add(json&& value, std::size_t heap) {
    charge(growth * sizeof(json) + heap);
    if (stack_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    frame& f = stack_.back();
    if (f.value->is_array()) {
      auto& items = f.value->get_ref<json::array_t&>();
      items.push_back(std::move(value));
      return &items.back();
    }
    auto& members = f.value->get_ref<json::object_t&>();
    members.json::object_t::Container::emplace_back(std::move(f.key), std::move(value));
    return &members.back().second;
  }

  bool open(json&& value) {
    if (stack_.size() >= max_json_depth)
      throw error(fmt::format("{}: JSON nested deeper than {} levels", where_, max_json_depth));
    json* at = add(std::move(value), container_bytes);
    stack_.push_back({at, {}, nullptr});
    return true;
  }

  bool close() {
    // Growth by doubling leaves up to half of each container unused; a DOM kept for reading needs none.
    json& value = *stack_.back().value;
    if (value.is_array())
      value.get_ref<json::array_t&>().shrink_to_fit();
    else
      value.get_ref<json::object_t&>().shrink_to_fit();
    stack_.pop_back();
    return true;
  }

public:
  std::size_t text_size_ = 0;

private:
  json& root_;
  const std::string& where_;
  std::uint64_t memory_cap_;
  std::uint64_t used_ = 0;
  std::vector<frame> stack_;
};

}  // namespace

json parse_json(std::string_view text, const std::string& where) {
  const std::uint64_t cap =
      memory_budget_given()
          ? memory_budget()
          : std::min<std::uint64_t>(memory_budget(),
                                    json_memory_floor + json_memory_per_byte * std::uint64_t{text.size()});
  json root;
  dom_builder builder(root, where, cap);
  builder.text_size_ = text.size();
  json::sax_parse(text.begin(), text.end(), &builder);
  return root;
}

std::string_view json_kind(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "an integer";
    case json::value_t::number_float: return "a number with a fraction or exponent";
    default: return "binary data";
  }
}

std::optional<std::uint64_t> as_unsigned(const json& j) {
  if (j.is_number_unsigned()) return j.get<std::uint64_t>();
  if (j.is_number_integer() && j.get<std::int64_t>() >= 0) return static_cast<std::uint64_t>(j.get<std::int64_t>());
  return std::nullopt;
}

std::optional<std::int64_t> as_signed(const json& j) {
  if (j.is_number_integer()) return j.get<std::int64_t>();  // number_unsigned is also "integer"
  return std::nullopt;
}

std::string found(const json& j) {
  if (j.is_primitive()) return fmt::format("{} {}", json_kind(j), quote(python_json(j)));
  return std::string(json_kind(j));
}

const json* member(const json& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || s.size() > 255 || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace rknnop::host::rknn_json
