#pragma once
// UTF-8 text measured in terminal columns: pane lines are cut to the pane's width, never wrapped by
// the terminal, and nothing a printer or a user produces may move the cursor (tabs, escapes).
#include <string>
#include <string_view>
#include <vector>

namespace tr::tui {

// A character typed, as the bytes readline reads.
std::string utf8(char32_t c);
// The lines of text; a final newline ends the last line rather than starting an empty one.
std::vector<std::string> split_lines(std::string_view text);
// The line as a terminal may show it: tabs expanded to 8-column stops; control characters, escape
// sequences' introducers and invalid UTF-8 bytes shown as '?'.
std::string printable(std::string_view line);
// Columns that a printable line takes (wide East Asian characters count two, combining marks none).
int display_width(std::string_view s);
// Bytes of the longest prefix of s, starting at byte `from`, that fits in `cols` columns.
size_t fit(std::string_view s, int cols, size_t from = 0);
// s in at most `cols` columns: whole, or cut with an ellipsis as its last column.
std::string ellipsized(std::string_view s, int cols);
// Bytes to skip so that the text starts `cols` columns in (without cutting a character).
size_t skip_columns(std::string_view s, int cols);
// Word-wrapped to `cols` columns, keeping the text's leading spaces and starting each further line
// with `indent` spaces; a word longer than a line is cut.
std::vector<std::string> wrap(std::string_view text, int cols, int indent = 0);
// Each line of text that is wider than `cols` wrapped as wrap() does.
std::string wrap_lines(std::string_view text, int cols, int indent);

}  // namespace tr::tui
