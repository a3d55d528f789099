#pragma once
// The meta commands of SPEC section 3 in their plain form: the table that runs them by name. Their usage,
// what each does and an example are the help table's (repl/help_commands.cpp), which :help lists and the
// completion reads.
#include <string_view>
#include <vector>

#include "repl/app/status.h"
#include "repl/span.h"
#include "repl/syntax.h"

namespace tr::repl {

class Host;
class MetaCall;

struct MetaCommand {
  std::string_view name;  // "src"
  Status (*run)(Host&, const MetaCall&) = nullptr;
};

const std::vector<MetaCommand>& meta_commands();
const MetaCommand* find_meta_command(std::string_view name);

// Throws SourceError (pointing at the command or the argument at fault) when it cannot do it.
Status run_meta(Host& host, const Meta& meta, Span at);

}  // namespace tr::repl
