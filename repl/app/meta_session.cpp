// :help :quit :vars :run :save :reset — the session itself.
#include <fmt/format.h>

#include "repl/app/files.h"
#include "repl/help_text.h"
#include "repl/parser.h"
#include "repl/app/meta_commands.h"
#include "repl/value_format.h"

namespace tr::repl::meta {
namespace {

std::string var_row(const std::string& name, const Value& v) {
  if (const Tensor* t = v.get_if<Tensor>())
    return fmt::format("{:<12} {:<7} {:<14} {:<8} {:<7} {}\n", name, "Tensor", repr_value(shape_value(t->shape())),
                       tr::name(t->dtype()), t->device(), t->realized() ? "realized" : "lazy");
  return fmt::format("{:<12} {:<7} = {}\n", name, type_name(v), repr_value(v));
}

// Whether topic is an expression other than a bare name the session has no variable for.
bool names_something(const Session& s, const std::string& topic) {
  try {
    const ExprRef e = parse_expression(topic);
    const Name* n = std::get_if<Name>(&e->node);
    return !n || s.names().contains(n->id);
  } catch (const Error&) {
    return false;
  }
}

}  // namespace

Status help(Host& h, const MetaCall& c) {
  const std::string topic(c.text(0, c.size()));
  std::string text;
  try {
    text = help_text(topic);
  } catch (const Error& e) {
    // not a topic or an entry's name: an expression that names something (x.softmax, a variable), as
    // help(...) takes it; a plain word the session does not know keeps the suggestion above
    if (!names_something(h.session(), topic)) c.fail(0, "value", "{}", e.what());
    text = c.help(h.session(), 0, c.size());
  }
  h.show(c.name(), text);
  return Status::Ok;
}

Status quit(Host&, const MetaCall& c) {
  c.expect(0, 0);
  return Status::Quit;
}

Status vars(Host& h, const MetaCall& c) {
  c.expect(0, 0);
  const Environment& names = h.session().names();
  if (names.empty()) {
    h.show(c.name(), "no names yet: x = arange(4) binds one\n");
    return Status::Ok;
  }
  std::string out = fmt::format("{:<12} {:<7} {:<14} {:<8} {:<7} {}\n", "name", "type", "shape", "dtype", "device",
                                "realized");
  for (const auto& [name, value] : names) out += var_row(name, value);
  h.show(c.name(), out);
  return Status::Ok;
}

Status run(Host& h, const MetaCall& c) {
  c.expect(1, 1);
  std::string source;
  try {
    source = read_text_file(c.arg(0));
  } catch (const Error& e) {
    c.fail(0, "io", "{}", e.what());
  }
  return h.run_source(source, c.arg(0));
}

Status save(Host& h, const MetaCall& c) {
  c.expect(1, 1);
  std::string text;
  for (const std::string& s : h.statements()) text += s + "\n";
  try {
    write_text_file(c.arg(0), text);
  } catch (const Error& e) {
    c.fail(0, "io", "{}", e.what());
  }
  const size_t n = h.statements().size();
  h.show(c.name(), fmt::format("saved {} statement{} to {}\n", n, n == 1 ? "" : "s", c.arg(0)));
  return Status::Ok;
}

Status reset(Host& h, const MetaCall& c) {
  c.expect(0, 0);
  h.reset();
  h.show(c.name(), "every name is forgotten\n");
  return Status::Ok;
}

}  // namespace tr::repl::meta
