#include "core/base/tree_print.h"

#include <fmt/format.h>

namespace tr {
namespace {

// Rows of the subtree without their numbers; the first row is the node itself.
std::vector<std::string> rows(const TreeNode& n) {
  if (n.children.empty()) return {"━━ " + n.label};
  std::vector<std::string> out{"━┳ " + n.label};
  for (size_t i = 0; i < n.children.size(); i++) {
    const std::vector<std::string> child = rows(n.children[i]);
    const bool last = i + 1 == n.children.size();
    out.push_back((last ? " ┗" : " ┣") + child[0]);
    for (size_t j = 1; j < child.size(); j++) out.push_back((last ? "  " : " ┃") + child[j]);
  }
  return out;
}

}  // namespace

std::string print_tree(const TreeNode& root) {
  std::string out;
  const std::vector<std::string> lines = rows(root);
  for (size_t i = 0; i < lines.size(); i++) out += fmt::format("{:>3} {}\n", i, lines[i]);
  return out;
}

}  // namespace tr
