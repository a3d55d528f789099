#pragma once
// Syntax classes of the words in a pane's line, for colour: keywords, types, numbers, strings and
// comments of each backend's source, and of the AST, graph and UOps listings; a unified diff's removed,
// added and hunk lines.
#include <cstdint>
#include <string_view>
#include <vector>

namespace tr::tui {

enum class Style : uint8_t { Plain, Keyword, Type, Number, String, Comment, Removed, Added, Hunk };
enum class Syntax : uint8_t { None, C, LlvmIr, Wgsl, Listing, Diff };

// C, OpenCL, CUDA and Metal share C's lexical rules; LLVM IR has its own.
Syntax syntax_of_backend(std::string_view backend);

struct Span {
  size_t begin = 0, end = 0;  // bytes of the line
  Style style = Style::Plain;
};

// Carried from one line to the next: a /* comment */ may span lines.
struct HighlightState {
  bool in_comment = false;
};

// Spans in order, covering the styled parts of the line (the rest is plain).
std::vector<Span> highlight(std::string_view line, Syntax syntax, HighlightState& state);

}  // namespace tr::tui
