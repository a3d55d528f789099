#pragma once
// Rewrite rules as data: each is a pattern over a node and its sources, the replacement it builds,
// and the identity that makes the two equal. The simplify pass applies them until none matches.
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/codegen/graph.h"
#include "core/ir/target.h"

namespace tr {

// A pattern: what a node must be (any node, a constant, a given constant, an op over sub-patterns)
// and, where `slot` >= 0, the name under which the matched node is captured.
struct Pat {
  enum class Is : uint8_t { Any, Const, ConstValue, Alu, AnyAlu, Cast, Gep, AluOfConstants };
  Is is = Is::Any;
  Op alu = Op::Add;         // Alu
  double value = 0;         // ConstValue
  bool commutative = false; // Alu with two sources: either order matches
  std::vector<Pat> srcs{};  // Alu, Cast, Gep
  int slot = -1;
};

using Captures = std::array<int, 3>;  // slot -> the node it matched

struct Rule {
  std::string name;      // "add zero"
  std::string identity;  // "x + 0 = x": why the replacement equals the match
  Pat pattern;
  // The replacement, or nullopt when the match does not qualify after all (a float where the identity
  // holds only for integers).
  std::function<std::optional<int>(UGraph& g, int node, const Captures& c)> replace;
};

// The rules every target shares: constant folding, identities, and the order that puts an index's
// constant offset last (so that neighbouring lanes' indices differ only there).
const std::vector<Rule>& symbolic_rules();
// Half values held in float registers, each op's result rounded back to half (rules_half.cpp).
const std::vector<Rule>& half_in_float_rules();
// A reduce's sum of products accumulated with MULACC, where the target has it (rules_mulacc.cpp).
const std::vector<Rule>& mulacc_rules();
// The shared rules and those the target adds (rules_for.cpp).
const std::vector<Rule>& rules_for(const Target& target);

// Applies the rules to n, whose sources are already simplified, until none matches.
int simplify_top(UGraph& g, int n, const std::vector<Rule>& rules);
// n and everything under it simplified; `done` remembers nodes already simplified.
int simplify_node(UGraph& g, int n, std::map<int, int>& done);

// An index as (the node without its constant offset, that offset): x + 3 gives (x, 3), a constant 5
// gives (-1, 5), anything else (itself, 0).
std::pair<int, int64_t> split_offset(const UGraph& g, int n);

}  // namespace tr
