// einsum as tinygrad builds it: each operand is permuted and reshaped onto one alphabet of letters
// (size 1 where it lacks a letter), the operands multiply by broadcasting, and one sum removes the
// letters that the output lacks: a single reduce kernel. A letter repeated in one operand takes its
// diagonal first.
#include "core/tensor/einsum.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "core/base/error.h"

namespace tr {
namespace {

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == ',') out.emplace_back();
    else out.back() += c;
  }
  return out;
}

// The implicit output: the letters used once, in alphabet order.
std::string used_once(const std::string& formula) {
  std::string once;
  for (char c : formula)
    if (std::isalpha(static_cast<unsigned char>(c)) && std::count(formula.begin(), formula.end(), c) == 1) once += c;
  std::sort(once.begin(), once.end());
  return once;
}

// The letters the ellipsis stands for: ones the formula does not use, the same for every operand
// (aligned on the right, as broadcasting aligns).
std::string expand_ellipsis(std::string formula, const std::vector<Tensor>& xs) {
  if (formula.find("...") == std::string::npos) return formula;
  std::string unused;
  for (char c = 'A'; c <= 'Z'; c++)
    if (formula.find(c) == std::string::npos) unused += c;
  for (char c = 'a'; c <= 'z'; c++)
    if (formula.find(c) == std::string::npos) unused += c;
  const size_t arrow = formula.find("->");
  std::vector<std::string> inputs = split_commas(formula.substr(0, arrow));
  if (inputs.size() != xs.size())
    fail("value", "einsum formula has {} operands, got {} tensors", inputs.size(), xs.size());
  std::vector<int> counts;
  int most = 0;
  for (size_t i = 0; i < inputs.size(); i++) {
    const bool has = inputs[i].find("...") != std::string::npos;
    const int letters = static_cast<int>(inputs[i].size()) - (has ? 3 : 0);
    const int n = has ? std::max(0, xs[i].ndim() - letters) : 0;
    counts.push_back(n);
    most = std::max(most, n);
  }
  if (most > static_cast<int>(unused.size())) fail("value", "einsum has too many dims under '...'");
  std::string lhs;
  for (size_t i = 0; i < inputs.size(); i++) {
    const size_t at = inputs[i].find("...");
    if (at != std::string::npos) inputs[i].replace(at, 3, unused.substr(static_cast<size_t>(most - counts[i]), static_cast<size_t>(counts[i])));
    lhs += (i ? "," : "") + inputs[i];
  }
  const std::string ell = unused.substr(0, static_cast<size_t>(most));
  if (arrow != std::string::npos) {
    std::string rhs = formula.substr(arrow + 2);
    const size_t at = rhs.find("...");
    if (at != std::string::npos) rhs.replace(at, 3, ell);
    return lhs + "->" + rhs;
  }
  // no output given: the broadcast dims, then the letters used once, in order
  return lhs + "->" + ell + used_once(formula);
}

// x's diagonal over its dims j < k (of one size n): those two dims become one, the last.
Tensor diagonal(const Tensor& x, int j, int k) {
  const int64_t n = x.shape()[j];
  std::vector<int> order;
  for (int d = 0; d < x.ndim(); d++)
    if (d != j && d != k) order.push_back(d);
  order.insert(order.end(), {j, k});
  // row-major (n, n) read with a row length of n + 1 walks the diagonal
  const Tensor flat = x.permute(order).flatten(-2);
  std::vector<Range> pad(static_cast<size_t>(flat.ndim()), Range{0, 0});
  pad.back() = {0, n};
  Shape s(flat.shape().begin(), flat.shape().end() - 1);
  s.insert(s.end(), {n, n + 1});
  const Tensor rows = flat.pad(pad).reshape(s);
  std::vector<std::optional<Range>> first(static_cast<size_t>(rows.ndim()));
  first.back() = Range{0, 1};
  return rows.shrink(first).squeeze(-1);
}

}  // namespace

Tensor einsum(const std::string& text, const std::vector<Tensor>& operands) {
  std::string formula;
  for (char c : text)
    if (c != ' ') formula += c;
  if (operands.empty()) fail("value", "einsum needs at least one tensor");
  formula = expand_ellipsis(formula, operands);
  const size_t arrow = formula.find("->");
  const std::string rhs = arrow == std::string::npos ? used_once(formula) : formula.substr(arrow + 2);
  std::vector<std::string> inputs = split_commas(formula.substr(0, arrow));
  if (inputs.size() != operands.size())
    fail("value", "einsum formula has {} operands, got {} tensors", inputs.size(), operands.size());
  std::vector<Tensor> xs = operands;
  std::map<char, int64_t> sizes;
  for (size_t i = 0; i < inputs.size(); i++) {
    std::string& s = inputs[i];
    for (char c : s)
      if (!std::isalpha(static_cast<unsigned char>(c))) fail("value", "einsum formula has '{}', which is not a letter", c);
    if (static_cast<int>(s.size()) != xs[i].ndim())
      fail("shape", "einsum operand {} has {} dims but '{}' names {}", i, xs[i].ndim(), s, s.size());
    for (size_t j = 0; j < s.size(); j++) {
      const size_t k = s.find(s[j], j + 1);
      if (k == std::string::npos) continue;
      if (xs[i].shape()[j] != xs[i].shape()[k])
        fail("shape", "einsum operand {} repeats '{}' over dims of sizes {} and {}", i, s[j], xs[i].shape()[j], xs[i].shape()[k]);
      xs[i] = diagonal(xs[i], static_cast<int>(j), static_cast<int>(k));
      std::string rest;
      for (size_t d = 0; d < s.size(); d++)
        if (d != j && d != k) rest += s[d];
      s = rest + s[j];
      j = static_cast<size_t>(-1);
    }
    for (size_t j = 0; j < s.size(); j++) {
      const int64_t n = xs[i].shape()[j];
      const auto [it, fresh] = sizes.emplace(s[j], n);
      if (!fresh && it->second != n && it->second != 1 && n != 1)
        fail("shape", "einsum letter '{}' has size {} in one operand and {} in another", s[j], it->second, n);
      if (!fresh && it->second == 1) it->second = n;
    }
  }
  for (char c : rhs)
    if (!sizes.contains(c)) fail("value", "einsum output letter '{}' is in no operand", c);
  std::string alpha;
  for (const auto& [c, n] : sizes) alpha += c;
  std::optional<Tensor> product;
  for (size_t i = 0; i < xs.size(); i++) {
    const std::string& s = inputs[i];
    std::string sorted = s;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> order;
    for (char c : sorted) order.push_back(static_cast<int>(s.find(c)));
    Shape aligned;
    for (char c : alpha) aligned.push_back(s.find(c) == std::string::npos ? 1 : xs[i].shape()[s.find(c)]);
    const Tensor x = s.empty() ? xs[i] : xs[i].permute(order).reshape(aligned);
    product = product ? product->mul(x) : x;
  }
  std::vector<int> summed;
  for (size_t i = 0; i < alpha.size(); i++)
    if (rhs.find(alpha[i]) == std::string::npos) summed.push_back(static_cast<int>(i));
  const Tensor out = product->sum(summed);
  // the kept letters are in alphabet order; put them in the output's order
  std::string kept = rhs;
  std::sort(kept.begin(), kept.end());
  std::vector<int> order;
  for (char c : rhs) order.push_back(static_cast<int>(kept.find(c)));
  return order.empty() ? out : out.permute(order);
}

}  // namespace tr
