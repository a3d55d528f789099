#include "repl/help_table.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "core/base/paragraph.h"
#include "core/ir/dtype.h"
#include "repl/convert.h"

namespace tr::repl {
namespace {

std::string_view kind_label(HelpKind kind, const HelpEntry& e) {
  switch (kind) {
    case HelpKind::Function:
    case HelpKind::NnFunction: return "function";
    case HelpKind::Method: return "method";
    case HelpKind::Attribute: return "attribute";
    case HelpKind::Member: return e.signature.find('(') == std::string_view::npos ? "attribute" : "method";
    case HelpKind::Command: return "command";
    case HelpKind::DType: return "dtype";
  }
  return "";
}

// "dtypes.float32, float" for float32: every other spelling that names it.
std::string dtype_aliases(std::string_view name) {
  std::vector<std::string> out{fmt::format("dtypes.{}", name)};
  for (const std::string& n : dtype_names())
    if (n != name && parse_dtype(n) == parse_dtype(name)) out.push_back(n);
  return fmt::format("{}", fmt::join(out, ", "));
}

}  // namespace

const std::vector<HelpGroup>& help_groups() {
  static const std::vector<HelpGroup> groups = [] {
    std::vector<HelpGroup> out;
    for (auto* part : {&function_help, &elementwise_help, &reduce_help, &layout_help, &nn_method_help, &object_help,
                       &command_help, &dtype_help}) {
      std::vector<HelpGroup> groups = part();
      out.insert(out.end(), std::make_move_iterator(groups.begin()), std::make_move_iterator(groups.end()));
    }
    return out;
  }();
  return groups;
}

const HelpEntry* find_help(HelpKind kind, std::string_view name) {
  std::string canonical(name);
  if (kind == HelpKind::DType) {
    const std::optional<DType> t = parse_dtype(name);
    if (!t) return nullptr;
    canonical = std::string(tr::name(*t));
  }
  for (const HelpGroup& g : help_groups())
    if (g.kind == kind)
      for (const HelpEntry& e : g.entries)
        if (e.name == canonical) return &e;
  return nullptr;
}

std::vector<std::string> help_names(HelpKind kind) {
  std::vector<std::string> out;
  for (const HelpGroup& g : help_groups())
    if (g.kind == kind)
      for (const HelpEntry& e : g.entries) out.emplace_back(e.name);
  return out;
}

std::string_view first_sentence(std::string_view about) {
  // a sentence ends at ". " (a "." inside a number or a name, as in x.sum, does not end it, nor does e.g.)
  for (size_t end = about.find(". "); end != std::string_view::npos; end = about.find(". ", end + 1))
    if (!about.substr(0, end).ends_with("e.g")) return about.substr(0, end + 1);
  return about;
}

std::string entry_text(HelpKind kind, const HelpEntry& e) {
  std::string out = fmt::format("{} {}\n", kind_label(kind, e), e.signature);
  if (kind == HelpKind::DType) out += fmt::format("  also written {}\n", dtype_aliases(e.name));
  out += paragraph(e.about, "  ");
  out += "  example:\n";
  size_t start = 0;
  while (start < e.example.size()) {
    const size_t end = std::min(e.example.find('\n', start), e.example.size());
    out += fmt::format("    {}\n", e.example.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace tr::repl
