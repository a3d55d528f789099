#pragma once
// The keys of the TUI, as F1 and :help show them.
#include <string_view>

namespace tr::tui {

std::string_view keys_help();

}  // namespace tr::tui
