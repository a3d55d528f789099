#include "repl/app/completion.h"

#include <algorithm>
#include <set>

#include "core/runtime/device.h"
#include "core/render/render.h"
#include "repl/convert.h"
#include "repl/help_table.h"
#include "repl/help_text.h"

namespace tr::repl {
namespace {

std::vector<std::string> starting_with(std::string_view prefix, const std::set<std::string>& words,
                                       std::string_view before = {}) {
  std::vector<std::string> out;
  for (const std::string& w : words)
    if (w.starts_with(prefix)) out.push_back(std::string(before) + w);
  return out;
}

std::set<std::string> names_of(HelpKind kind) {
  const std::vector<std::string> names = help_names(kind);
  return {names.begin(), names.end()};
}

std::set<std::string> value_names(const Session& session) {
  std::set<std::string> out{"True", "False", "None", "and", "or", "not", "assert", "dtypes", "nn"};
  for (const std::string& n : session.variable_names()) out.insert(n);
  out.merge(names_of(HelpKind::Function));
  out.insert(dtype_names().begin(), dtype_names().end());
  return out;
}

// The word at the cursor in an expression: a name, or a member after "object.".
std::vector<std::string> expression_word(std::string_view word, const Session& session) {
  const Environment& names = session.names();
  const size_t dot = word.rfind('.');
  if (dot == std::string_view::npos) return starting_with(word, value_names(session));
  if (word.starts_with("nn.") && !names.contains("nn")) return starting_with(word, names_of(HelpKind::NnFunction));
  const std::string_view object = word.substr(0, dot + 1), member = word.substr(dot + 1);
  if (object == "dtypes." && !names.contains("dtypes")) {
    return starting_with(member, std::set<std::string>(dtype_names().begin(), dtype_names().end()), object);
  }
  if (object == "Tensor." && !names.contains("Tensor")) return starting_with(member, names_of(HelpKind::Function), object);
  std::set<std::string> members = names_of(HelpKind::Method);
  members.merge(names_of(HelpKind::Attribute));
  return starting_with(member, members, object);
}

// After '?': every name help answers to, or a member after "x.".
std::vector<std::string> help_word(std::string_view word, const Session& session) {
  if (word.find('.') != std::string_view::npos) return expression_word(word, session);
  const std::vector<std::string> topics = help_topics();
  std::set<std::string> words(topics.begin(), topics.end());
  words.merge(value_names(session));
  return starting_with(word, words);
}

std::set<std::string> meta_argument_words(std::string_view command, const Environment& names, bool& files) {
  if (command == "render" || command == "diff") return {backends().begin(), backends().end()};
  if (command == "src") {
    std::set<std::string> out(backends().begin(), backends().end());
    out.insert("uops");
    return out;
  }
  if (command == "ast") return {"lazyop"};
  if (command == "device") {
    std::set<std::string> out;
    for (const DeviceEntry& d : registered_devices()) out.insert(d.name);
    return out;
  }
  if (command == "help") {
    const std::vector<std::string> topics = help_topics();
    return {topics.begin(), topics.end()};
  }
  if (command == "noopt" || command == "online_softmax") return {"on", "off"};
  if (command == "opt") return {"UPCAST", "UNROLL", "LOCAL", "GROUP", "THREAD", "none"};
  if (command == "run" || command == "save" || command == "trace") {
    files = true;
    return {};
  }
  if (command == "graph") files = true;  // x, then the file
  std::set<std::string> out;
  for (const auto& [n, v] : names) out.insert(n);
  return out;
}

}  // namespace

Completion complete(std::string_view line, size_t cursor, const Session& session) {
  line = line.substr(0, std::min(cursor, line.size()));
  const size_t brk = line.find_last_of(kWordBreaks);
  Completion c;
  c.start = brk == std::string_view::npos ? 0 : brk + 1;
  const std::string_view word = line.substr(c.start);
  const size_t first = line.find_first_not_of(" \t");
  if (first != std::string_view::npos && line[first] == ':') {
    if (c.start == first) {  // the command's name
      c.candidates = starting_with(word.substr(1), names_of(HelpKind::Command), ":");
      return c;
    }
    const std::string_view rest = line.substr(first + 1);
    const std::string_view command = rest.substr(0, rest.find_first_of(" \t"));
    bool files = false;
    c.candidates = starting_with(word, meta_argument_words(command, session.names(), files));
    c.files = files && c.candidates.empty();
    return c;
  }
  c.candidates = c.start > 0 && line[c.start - 1] == '?' ? help_word(word, session) : expression_word(word, session);
  return c;
}

}  // namespace tr::repl
