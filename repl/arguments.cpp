#include "repl/arguments.h"

#include <algorithm>

#include "repl/source_error.h"

namespace tr::repl {

const Arg* Bound::find(std::string_view name) const {
  for (const auto& [n, arg] : named_) {
    if (n == name) return arg ? &*arg : nullptr;
  }
  return nullptr;
}

const Arg& Bound::operator[](std::string_view name) const { return *find(name); }

Bound bind(const CallArgs& call, std::initializer_list<Param> params) {
  const std::vector<Param> ps(params);
  Bound b;
  for (const Param& p : ps) b.named_.emplace_back(p.name, std::nullopt);

  // Parameters after a Rest one can only be named, as in Python.
  const auto rest_it = std::find_if(ps.begin(), ps.end(), [](const Param& p) { return p.kind == ParamKind::Rest; });
  const size_t positional = static_cast<size_t>(rest_it - ps.begin());
  for (size_t i = 0; i < call.args.size(); i++) {
    Arg arg = call.args[i];
    if (i < positional) {
      arg.what = fmt::format("argument '{}' of {}()", ps[i].name, call.name);
      b.named_[i].second = std::move(arg);
    } else if (rest_it != ps.end()) {
      arg.what = fmt::format("argument {} of {}()", i + 1, call.name);
      b.rest_.push_back(std::move(arg));
    } else {
      fail_at(arg.span, "type", "{}() takes at most {} positional argument{} but {} {} given", call.name, positional,
              positional == 1 ? "" : "s", call.args.size(), call.args.size() == 1 ? "was" : "were");
    }
  }

  for (const KeywordValue& kw : call.keywords) {
    const auto it = std::find_if(ps.begin(), ps.end(), [&](const Param& p) {
      return (p.name == kw.name || (!p.alias.empty() && p.alias == kw.name)) && p.kind != ParamKind::Rest;
    });
    if (it == ps.end()) {
      std::string allowed;
      for (const Param& p : ps) {
        if (p.kind == ParamKind::Rest) continue;
        allowed += (allowed.empty() ? "" : ", ") + std::string(p.name);
        if (!p.alias.empty()) allowed += fmt::format(" (or {})", p.alias);
      }
      if (allowed.empty()) fail_at(kw.span, "type", "{}() takes no keyword arguments", call.name);
      fail_at(kw.span, "type", "{}() got an unexpected keyword argument '{}' (allowed: {})", call.name, kw.name,
              allowed);
    }
    std::optional<Arg>& slot = b.named_[static_cast<size_t>(it - ps.begin())].second;
    if (slot) fail_at(kw.span, "type", "{}() got multiple values for argument '{}'", call.name, it->name);
    slot = Arg{kw.value, kw.span, fmt::format("argument '{}' of {}()", kw.name, call.name)};
  }

  for (size_t i = 0; i < ps.size(); i++) {
    std::optional<Arg>& slot = b.named_[i].second;
    if (ps[i].kind == ParamKind::Required && !slot) {
      fail_at(call.span, "type", "{}() missing required argument '{}'", call.name, ps[i].name);
    }
    if (ps[i].kind == ParamKind::Optional && slot && slot->value.is<NoneValue>()) slot.reset();
  }
  return b;
}

}  // namespace tr::repl
