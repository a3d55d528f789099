#pragma once
// The meta commands of SPEC section 3 in their plain form: one table, used to run them, to list them
// in :help and to complete their names.
#include <string_view>
#include <vector>

#include "repl/app/status.h"
#include "repl/span.h"
#include "repl/syntax.h"

namespace tr::repl {

class Host;
class MetaCall;

struct MetaCommand {
  std::string_view name;     // "src"
  std::string_view usage;    // ":src [K] [BACKEND]"
  std::string_view summary;  // one line for :help
  Status (*run)(Host&, const MetaCall&) = nullptr;
};

const std::vector<MetaCommand>& meta_commands();
const MetaCommand* find_meta_command(std::string_view name);

// Throws SourceError (pointing at the command or the argument at fault) when it cannot do it.
Status run_meta(Host& host, const Meta& meta, Span at);

}  // namespace tr::repl
