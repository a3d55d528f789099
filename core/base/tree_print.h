#pragma once
// The tree drawing every IR shares: one numbered row per node, children joined by ┣ ┗ ┃.
//   0 ━┳ STORE ...
//   1  ┗━┳ SUM (0,)
#include <functional>
#include <string>
#include <vector>

namespace tr {

struct TreeNode {
  std::string label;
  std::vector<TreeNode> children;
};

std::string print_tree(const TreeNode& root);

}  // namespace tr
