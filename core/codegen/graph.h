#pragma once
// The graph that every lowering pass reads and writes: UOps whose sources are earlier nodes of the same
// graph, interned so that an identical UOp is one node (CSE by structural hash: sources compare by
// node, lanes and fields by value). Node order is a topological order, not a schedule: the linearize
// pass places each node inside the loops it depends on.
#include <functional>
#include <map>
#include <unordered_map>
#include <vector>

#include "core/ir/uops.h"

namespace tr {

class UGraph {
 public:
  // The node equal to u, added if there is none.
  int add(UOp u);
  const UOp& operator[](int i) const { return nodes_[i]; }
  int size() const { return static_cast<int>(nodes_.size()); }

  int cnst(const ConstValue& v, DType t, int vec = 1);
  int alu(Op op, DType t, std::vector<int> srcs, int vec = 1);
  int cast(DType t, int src, int vec = 1);
  int vectorize(std::vector<int> lanes);
  int gep(int v, int lane);  // a lane of a VECTORIZE is its source
  // One vector of `vec` copies of a scalar (a vector stays as it is).
  int broadcast(int x, int vec);
  const ConstValue* const_of(int i) const { return nodes_[i].kind == UOpKind::Const ? &nodes_[i].value : nullptr; }

  int sink = -1;  // the SINK whose sources are the kernel's stores

  // The row of the kernel's AST (as print_ast numbers its rows) that node n was lowered from, or -1
  // where no one row made it. A node takes the row of the FromAstRow in force when it is first added.
  int origin(int n) const { return origins_[n]; }
  int from_row = -1;  // the row in force: set by FromAstRow

 private:
  std::vector<UOp> nodes_;
  std::vector<int> origins_;
  std::unordered_multimap<size_t, int> index_;
};

// While it lives, the nodes that g adds come from AST row `row` (-1: from none), as the node they are
// made for does; the row before it holds again after.
class FromAstRow {
 public:
  FromAstRow(UGraph& g, int row) : g_(g), before_(g.from_row) { g.from_row = row; }
  ~FromAstRow() { g_.from_row = before_; }
  FromAstRow(const FromAstRow&) = delete;
  FromAstRow& operator=(const FromAstRow&) = delete;

 private:
  UGraph& g_;
  int before_;
};

// The nodes reachable from the sink, sources before their users, each once.
std::vector<int> toposort(const UGraph& g);

// Node n of g with the nodes that `with` names replaced by theirs, each source first (`done` remembers
// what one replacement made of each node); nodes that nothing under changes stay themselves.
int substitute(UGraph& g, int n, const std::map<int, int>& with, std::map<int, int>& done);

// Copies the nodes reachable from g's sink into a new graph, sources first, each once. `f` makes the
// new node from the old one, whose sources already name new nodes; it returns the new node's index.
UGraph rewrite(const UGraph& g, const std::function<int(UGraph& out, int old, const UOp& moved)>& f);

}  // namespace tr
