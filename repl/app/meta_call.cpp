#include "repl/app/meta_call.h"

#include <algorithm>
#include <cctype>

#include "repl/parser.h"

namespace tr::repl {
namespace {

bool blank(char c) { return c == ' ' || c == '\t'; }

}  // namespace

bool is_index(std::string_view arg) {
  const size_t digits = arg.starts_with('-') ? 1 : 0;
  return arg.size() > digits &&
         std::all_of(arg.begin() + static_cast<long>(digits), arg.end(), [](unsigned char ch) { return std::isdigit(ch); });
}

std::string lowercase(std::string arg) {
  std::transform(arg.begin(), arg.end(), arg.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return arg;
}

MetaCall::MetaCall(const Meta& meta, Span at, std::string_view usage) : meta_(meta), at_(at), usage_(usage) {
  // the words of the text after ':', split as the parser splits them; the first is the name
  const std::string& t = meta_.text;
  bool first = true;
  for (size_t i = 1; i < t.size();) {
    if (blank(t[i])) {
      i++;
      continue;
    }
    if (!first) starts_.push_back(i);
    first = false;
    while (i < t.size() && !blank(t[i])) i++;
  }
}

Span MetaCall::arg_span(size_t i) const {
  return Span{at_.line, at_.col + static_cast<int>(starts_[i]), static_cast<int>(meta_.args[i].size())};
}

std::string_view MetaCall::text(size_t first, size_t last) const {
  if (first >= last) return {};
  const size_t end = starts_[last - 1] + meta_.args[last - 1].size();
  return std::string_view(meta_.text).substr(starts_[first], end - starts_[first]);
}

void MetaCall::expect(size_t lo, size_t hi) const {
  if (size() < lo || size() > hi) fail_at(at_, "command", "usage: {}", usage_);
}

Value MetaCall::value(Session& s, size_t first, size_t last) const {
  return on_expression(first, last, [&](const Expr& e) { return s.evaluate(e); });
}

std::string MetaCall::help(Session& s, size_t first, size_t last) const {
  return std::get<std::string>(on_expression(first, last, [&](const Expr& e) { return Value(s.help(e)); }));
}

Value MetaCall::on_expression(size_t first, size_t last, const std::function<Value(const Expr&)>& f) const {
  if (first >= last) fail_at(at_, "command", "usage: {}", usage_);
  const Span base = arg_span(first);
  try {
    return f(*parse_expression(text(first, last)));
  } catch (const SourceError& e) {
    // the expression was parsed on its own, from line 1 column 1: move its span onto the command line
    Span sp = e.span();
    sp.col = base.col + std::max(sp.col, 1) - 1;
    sp.line = base.line;
    throw SourceError(e.kind(), e.what(), sp);
  }
}

Tensor MetaCall::tensor(Session& s, size_t first, size_t last) const {
  const Value v = value(s, first, last);
  if (const Tensor* t = v.get_if<Tensor>()) return *t;
  const Span sp{arg_span(first).line, arg_span(first).col, static_cast<int>(text(first, last).size())};
  fail_at(sp, "type", "{} needs a tensor, not {}", usage_, type_name(v));
}

}  // namespace tr::repl
