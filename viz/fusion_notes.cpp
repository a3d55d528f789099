#include "viz/fusion_notes.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <set>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "core/base/paragraph.h"
#include "core/kernel/kernel.h"

namespace tr {
namespace {

// A value the kernel computes from a reduce and then reads through a view that repeats it over the rows.
struct Expanded {
  const LazyNode* value;   // what the view repeats
  const LazyNode* view;    // the expanding VIEW
  const LazyNode* reduce;  // the reduce it comes from
  const LazyNode* reader;  // a later reduce of the kernel that reads the view; null when none does
};

// The notes sit under the kernel's own lines in :explain.
constexpr std::string_view kIndent = "    ";
constexpr size_t kWidth = 100;

int64_t elements(const Shape& s) { return std::accumulate(s.begin(), s.end(), int64_t{1}, std::multiplies<>()); }

class KernelGraph {
 public:
  KernelGraph(const ScheduleItem& item, const std::map<uint64_t, const LazyNode*>& nodes) {
    for (uint64_t id : item.fused)
      if (const auto n = nodes.find(id); n != nodes.end()) {
        fused_.push_back(n->second);
        members_.insert(n->second);
      }
  }

  std::vector<Expanded> expanded() const {
    std::vector<Expanded> out;
    std::set<const LazyNode*> seen;
    for (const LazyNode* n : fused_)
      for (const LazyRef& s : n->srcs) {
        if (!s->is_view() || !inside(s->srcs[0].get()) || elements(s->shape) <= elements(s->srcs[0]->shape)) continue;
        const LazyNode* value = s->srcs[0].get();
        const LazyNode* reduce = first_reduce(value);
        if (reduce && seen.insert(value).second) out.push_back({value, s.get(), reduce, reader_of(s.get(), reduce)});
      }
    return out;
  }

 private:
  bool inside(const LazyNode* n) const { return members_.contains(n); }

  // Whether found holds for a node of the kernel's part of the graph below from (views of its nodes
  // included); the walk stops at the first.
  bool walk(const LazyNode* from, const std::function<bool(const LazyNode*)>& found) const {
    std::set<const LazyNode*> visited;
    std::vector<const LazyNode*> todo{from};
    while (!todo.empty()) {
      const LazyNode* n = todo.back();
      todo.pop_back();
      if (!visited.insert(n).second) continue;
      if (n != from && found(n)) return true;
      for (const LazyRef& s : n->srcs)
        if (inside(s.get()) || (s->is_view() && inside(s->srcs[0].get()))) todo.push_back(s.get());
    }
    return false;
  }

  const LazyNode* first_reduce(const LazyNode* value) const {
    if (is_reduce(value->op)) return value;
    const LazyNode* out = nullptr;
    walk(value, [&](const LazyNode* n) {
      if (is_reduce(n->op)) out = n;
      return out != nullptr;
    });
    return out;
  }

  const LazyNode* reader_of(const LazyNode* view, const LazyNode* reduce) const {
    for (const LazyNode* n : fused_)
      if (is_reduce(n->op) && n != reduce && walk(n, [&](const LazyNode* m) { return m == view; })) return n;
    return nullptr;
  }

  std::vector<const LazyNode*> fused_;  // in the schedule item's order
  std::unordered_set<const LazyNode*> members_;
};

std::string node_str(const LazyNode& n) { return fmt::format("#{} {}", n.id, op_name(n.op)); }

// n, or what it reads through casts and views (a mean of ints casts its sum, a mean over every axis reshapes it).
const LazyNode* under_casts(const LazyNode* n) {
  while (n->op == Op::Cast || n->is_view()) n = n->srcs[0].get();
  return n;
}

// A mean: the sum times 1/n.
bool is_mean(const Expanded& e) {
  return e.value->op == Op::Mul && e.reduce->op == Op::Sum &&
         std::any_of(e.value->srcs.begin(), e.value->srcs.end(), [&](const LazyRef& s) { return under_casts(s.get()) == e.reduce; });
}

// What the expanded value is, in the words of the program that made it.
std::string described(const Expanded& e) {
  const LazyNode& v = *e.value;
  if (&v == e.reduce) return fmt::format("{} (the {})", node_str(v), v.op == Op::ReduceMax ? "max" : "sum");
  if (is_mean(e)) return fmt::format("{} (the mean: {} times 1/n)", node_str(v), node_str(*e.reduce));
  return fmt::format("{} (computed from {})", node_str(v), node_str(*e.reduce));
}

}  // namespace

std::string online_softmax_note(const ScheduleItem& item) {
  if (item.kind != ScheduleItem::Kind::Kernel || !Kernel::from_ast(item.ast).online_softmax) return "";
  return paragraph(
      "It fused as an online softmax: each sum over the rows reads the row's maximum only through exp(x - max), "
      "and what else it multiplies either reads no reduce or is the same along the row (softmax's 1/sum). So one "
      "walk of each row keeps a running maximum and rescales every sum by exp(old max - new max) whenever the "
      "maximum grows (the EXP2 of the two maxima in :uops or :step), and multiplies the constant factors in once "
      "after the walk, instead of walking the row for the max, again for the sum of exps and again for the "
      "weighted sum.",
      kIndent, kWidth);
}

std::string split_by_the_notes(const ScheduleItem& item, const std::map<uint64_t, const LazyNode*>& nodes) {
  if (item.kind != ScheduleItem::Kind::Kernel || Kernel::from_ast(item.ast).online_softmax) return "";
  const std::vector<Expanded> found = KernelGraph(item, nodes).expanded();
  if (found.empty()) return "";
  std::vector<std::string> values, views, ids, read_again;
  for (const Expanded& e : found) {
    values.push_back(described(e));
    views.push_back(node_str(*e.view));
    ids.push_back(fmt::format("#{}", e.value->id));
    if (e.reader) read_again.push_back(fmt::format("{} reads {}", node_str(*e.reader), ids.back()));
  }
  const int walks = Kernel::from_ast(item.ast).row_passes;
  const std::string notes = fmt::format(
      "The notes split it: the tinygrad of seeds 001 and 003 ends a kernel after {}, since {} repeat{} that "
      "value back over the rows for the ops after it, and it stores a reduce that is read through such an expand "
      "(the notes' var is two kernels: r_4 writes the mean, r_4n1 reads it back).",
      fmt::join(values, " and after "), fmt::join(views, " and "), views.size() == 1 ? "s" : "");
  const std::string now =
      read_again.empty()
          ? std::string("tinygrad 0.14 decides this case by its own heuristics: it may end a kernel there as the "
                        "notes do, or recompute the reduce for every element that reads it.")
          : fmt::format("tinygrad 0.14 still ends a kernel there when a later reduce reads the value, as here ({}).",
                        fmt::join(read_again, ", "));
  const std::string why = fmt::format(
      "tinyrepl keeps one kernel because the reduce and what reads it walk the same rows: the kernel walks each "
      "row {} time{}, "
      "computing {} once per row in one walk and reading {} from a register in the next, which saves a launch "
      "and a round trip through memory for each split.",
      walks, walks == 1 ? "" : "s", fmt::join(ids, " and "), ids.size() == 1 ? "it" : "each");
  std::string out = paragraph(notes, kIndent, kWidth) + paragraph(now, kIndent, kWidth) + paragraph(why, kIndent, kWidth);
  const std::string how = fmt::format("To see their split, give {}{} a buffer of its own with .contiguous()",
                                      fmt::join(ids, " and "), ids.size() == 1 ? "" : " each");
  if (std::any_of(found.begin(), found.end(), is_mean)) {
    out += paragraph(how + ", as the notes' var does:", kIndent, kWidth);
    out += "      m = x.mean().contiguous()                    # the notes' first kernel exactly (r_4: the sum times 1/n)\n"
           "      v = ((x - m) ** 2).sum() / (x.numel() - 1)   # their second kernel (r_4n1)\n"
           "    and over an axis, x.mean(axis, keepdim=True).contiguous() and .sum(axis).\n";
  } else if (found[0].reduce->op == Op::ReduceMax) {
    out += paragraph(how + ", as for softmax's max:", kIndent, kWidth);
    out += "      m = x.max(axis=-1, keepdim=True).contiguous()\n";
  } else {
    out += paragraph(how + ", as for a sum:", kIndent, kWidth);
    out += "      s = x.sum(axis=-1, keepdim=True).contiguous()\n";
  }
  return out;
}

}  // namespace tr
