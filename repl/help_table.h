#pragma once
// The one table of help: every function, tensor method and attribute, nn function, method of the other
// objects, meta command and dtype the REPL knows, each with its signature, a paragraph of what it does
// (tinygrad 0.14's meaning) and an example that runs. :help, help(), `x.method?`, `?name` and the tab
// completion all read it; tests check that it names exactly what the REPL binds and that each example runs.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tr::repl {

enum class HelpKind : uint8_t {
  Function,    // a built-in function: zeros(...), print(...)
  NnFunction,  // nn.Linear(...), nn.optim.Adam(...): named with its dots
  Method,      // a tensor method: x.sum(...)
  Attribute,   // a tensor attribute: x.shape
  Member,      // a method or attribute of another object, named "Type.member": "Optimizer.step", "dict.get"
  Command,     // a meta command, named without its ':'
  DType,       // a dtype, by its canonical name (float32); its aliases find it too
};

struct HelpEntry {
  std::string_view name;
  std::string_view signature;  // "x.softmax(axis=-1, dtype=None)", ":src [K] [BACKEND]", "float32"
  std::string_view about;      // a paragraph; its first sentence is the entry's line in the listings
  std::string_view example;    // .tg statements, a line each, that run in a fresh session
};

struct HelpGroup {
  std::string_view title;  // "reductions (negative axes count from the end)"
  HelpKind kind;
  std::vector<HelpEntry> entries;
};

// Every group, in the order :help lists them: functions, nn, tensor methods, other objects, commands, dtypes.
const std::vector<HelpGroup>& help_groups();

// The entry of that kind and name (a dtype also by an alias: "float", "half"); null when there is none.
const HelpEntry* find_help(HelpKind kind, std::string_view name);
// The names of one kind's entries, in table order.
std::vector<std::string> help_names(HelpKind kind);

// The entry as :help shows it: its kind and signature, the paragraph, the example.
std::string entry_text(HelpKind kind, const HelpEntry& e);
// The paragraph's first sentence.
std::string_view first_sentence(std::string_view about);

// The groups of each part of the table, one file each (repl/help_*.cpp).
std::vector<HelpGroup> function_help();
std::vector<HelpGroup> elementwise_help();
std::vector<HelpGroup> reduce_help();
std::vector<HelpGroup> layout_help();
std::vector<HelpGroup> nn_method_help();
std::vector<HelpGroup> object_help();
std::vector<HelpGroup> command_help();
std::vector<HelpGroup> dtype_help();

}  // namespace tr::repl
