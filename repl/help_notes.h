#pragma once
// The notes' vocabulary: the words of the teaching notes (seeds 001 and 003, written against the tinygrad
// of 2024) beside what tinyrepl calls the same thing and where it shows it. `:help notes` lists them all;
// `:help PHI` (any of a term's spellings) shows one.
#include <string>
#include <string_view>
#include <vector>

namespace tr::repl {

struct NoteTerm {
  std::string_view section;   // where the notes use it: "the DEBUG=5 log", "the UOps", ...
  std::string_view notes;     // as the notes write it: "UOps.PHI"
  std::string_view keys;      // every spelling that looks it up, separated by spaces: "UOps.PHI PHI"
  std::string_view tinyrepl;  // tinyrepl's name for it: "ASSIGN"
  std::string_view about;     // what it is here and where to see it
};

const std::vector<NoteTerm>& note_terms();

// Every spelling of every term, for completion and suggestions.
std::vector<std::string> note_keys();
// The whole table, grouped by section.
std::string notes_text();
// The rows that a spelling looks up, as :help shows them; "" when none does.
std::string note_text(std::string_view key);

}  // namespace tr::repl
