#pragma once
// Prose folded into lines for a terminal: the help entries' paragraphs and :explain's notes.
#include <cstddef>
#include <string>
#include <string_view>

namespace tr {

// text's words in lines of at most width columns after indent (a longer word gets a line of its own),
// each line starting with indent and ending with a newline.
std::string paragraph(std::string_view text, std::string_view indent, size_t width = 76);

}  // namespace tr
