#pragma once
// The help table's entries as test parameters: each example is a test of its own, named after its entry.
#include <cctype>
#include <string>
#include <vector>

#include "repl/help_table.h"

namespace tr::repl::testing {

struct HelpCase {
  HelpKind kind;
  const HelpEntry* entry;
};

// Every entry whose kind commands says: the meta commands' (true) or all the others' (false).
inline std::vector<HelpCase> help_cases(bool commands) {
  std::vector<HelpCase> out;
  for (const HelpGroup& g : help_groups())
    if ((g.kind == HelpKind::Command) == commands)
      for (const HelpEntry& e : g.entries) out.push_back({g.kind, &e});
  return out;
}

inline std::string kind_word(HelpKind kind) {
  switch (kind) {
    case HelpKind::Function: return "function";
    case HelpKind::NnFunction: return "nn";
    case HelpKind::Method: return "method";
    case HelpKind::Attribute: return "attribute";
    case HelpKind::Member: return "member";
    case HelpKind::Command: return "command";
    case HelpKind::DType: return "dtype";
  }
  return "";
}

// "method_softmax", "nn_nn_optim_SGD": a test name (letters, digits and '_') for the entry.
inline std::string help_case_name(const HelpCase& c) {
  std::string out = kind_word(c.kind) + "_" + std::string(c.entry->name);
  for (char& ch : out)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return out;
}

}  // namespace tr::repl::testing
