#include "repl/app/meta.h"

#include <fmt/format.h>

#include "repl/app/meta_commands.h"
#include "repl/help_table.h"
#include "repl/suggest.h"

namespace tr::repl {

const std::vector<MetaCommand>& meta_commands() {
  static const std::vector<MetaCommand> table{
      {"help", meta::help},
      {"quit", meta::quit},
      {"vars", meta::vars},
      {"device", meta::device},
      {"render", meta::render},
      {"debug", meta::debug},
      {"noopt", meta::noopt},
      {"online_softmax", meta::online_softmax},
      {"beam", meta::beam},
      {"kernels", meta::kernels},
      {"ast", meta::ast},
      {"uops", meta::uops},
      {"src", meta::src},
      {"asm", meta::assembly},
      {"repeat", meta::repeat},
      {"time", meta::time},
      {"explain", meta::explain},
      {"step", meta::step},
      {"opt", meta::opt},
      {"opts", meta::opts},
      {"diff", meta::diff},
      {"history", meta::history},
      {"jit", meta::jit},
      {"graph", meta::graph},
      {"trace", meta::trace},
      {"roofline", meta::roofline},
      {"run", meta::run},
      {"save", meta::save},
      {"reset", meta::reset},
  };
  return table;
}

const MetaCommand* find_meta_command(std::string_view name) {
  for (const MetaCommand& c : meta_commands())
    if (c.name == name) return &c;
  return nullptr;
}

Status run_meta(Host& host, const Meta& meta, Span at) {
  const MetaCommand* command = find_meta_command(meta.name);
  if (!command) {
    std::vector<std::string> names;
    for (const MetaCommand& c : meta_commands()) names.push_back(fmt::format(":{}", c.name));
    const Span name_span{at.line, at.col, static_cast<int>(meta.name.size()) + 1};
    fail_at(name_span, "command", "unknown command ':{}'{} (:help lists the commands)", meta.name,
            did_you_mean(":" + meta.name, names));
  }
  // the usage that the command's errors quote; a command without a help entry (which the help test
  // refuses) quotes what was typed
  const HelpEntry* help = find_help(HelpKind::Command, command->name);
  return command->run(host, MetaCall(meta, at, help ? help->signature : std::string_view(meta.text)));
}

}  // namespace tr::repl
