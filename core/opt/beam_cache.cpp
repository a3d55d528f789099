#include "core/opt/beam_cache.h"

#include <deque>
#include <mutex>
#include <sstream>
#include <utility>

#include <fmt/format.h>

namespace tr {
namespace {

// Without an installed store: the last few choices of this process.
ChoiceStore memory_store() {
  constexpr size_t kKept = 256;
  struct Table {
    std::mutex mutex;
    std::deque<std::pair<std::string, std::string>> entries;
  };
  static Table table;
  return {.find =
              [](const std::string& key) -> std::optional<std::string> {
                const std::lock_guard lock(table.mutex);
                for (const auto& [k, text] : table.entries)
                  if (k == key) return text;
                return std::nullopt;
              },
          .keep =
              [](const std::string& key, const std::string& text) {
                const std::lock_guard lock(table.mutex);
                std::erase_if(table.entries, [&](const auto& e) { return e.first == key; });
                if (table.entries.size() == kKept) table.entries.pop_front();
                table.entries.emplace_back(key, text);
              }};
}

ChoiceStore& store() {
  static ChoiceStore s = memory_store();
  return s;
}

}  // namespace

void install_choice_store(ChoiceStore s) { store() = std::move(s); }

std::string opts_text(const std::vector<Opt>& opts) {
  std::string out;
  for (const Opt& o : opts) out += fmt::format("{} {} {}\n", opt_name(o.op), o.dim, o.amount);
  return out;
}

std::optional<std::vector<Opt>> read_opts(const std::string& text) {
  std::vector<Opt> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string name, rest;
    Opt o{};
    if (!(words >> name >> o.dim >> o.amount) || (words >> rest)) return std::nullopt;
    const std::optional<OptOp> op = parse_opt(name);
    if (!op) return std::nullopt;
    o.op = *op;
    out.push_back(o);
  }
  return out;
}

std::optional<std::vector<Opt>> kept_opts(const std::string& key) {
  const std::optional<std::string> text = store().find(key);
  return text ? read_opts(*text) : std::nullopt;
}

void keep_opts(const std::string& key, const std::vector<Opt>& opts) { store().keep(key, opts_text(opts)); }

}  // namespace tr
