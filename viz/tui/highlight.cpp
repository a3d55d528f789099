#include "viz/tui/highlight.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "core/render/render.h"

namespace tr::tui {
namespace {

bool is_word_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

template <size_t N>
bool among(const std::array<std::string_view, N>& words, std::string_view w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

// C99, OpenCL C, CUDA and Metal keywords, with the launch-index builtins each backend spells, since
// those are what tell the backends apart.
constexpr std::array<std::string_view, 52> kCKeywords{
    "if", "else", "for", "while", "do", "return", "break", "continue", "switch", "case", "default", "goto",
    "sizeof", "typedef", "struct", "union", "enum", "static", "const", "restrict", "__restrict__", "volatile",
    "inline", "extern", "__kernel", "kernel", "__global__", "__device__", "__global", "global", "__local", "local",
    "__constant", "constant", "__shared__", "__constant__", "__launch_bounds__", "device", "threadgroup", "thread",
    "using", "namespace", "true", "false", "__attribute__", "get_global_id", "get_group_id", "get_local_id",
    "blockIdx", "threadIdx", "blockDim", "gridDim"};

constexpr std::array<std::string_view, 27> kCTypes{
    "void", "bool", "_Bool", "char", "short", "int", "long", "unsigned", "signed", "float", "double", "half",
    "_Float16", "__half", "size_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
    "uint64_t", "uchar", "ushort", "uint", "ulong"};

// Scalar names that also name vectors with a width suffix (float4, half8, uchar16).
constexpr std::array<std::string_view, 12> kVectorBases{"char", "uchar", "short", "ushort", "int",   "uint",
                                                        "long", "ulong", "half",  "float",  "double", "bool"};

constexpr std::array<std::string_view, 66> kLlvmKeywords{
    "define", "declare", "ret", "br", "label", "to", "load", "store", "getelementptr", "inbounds", "phi", "icmp",
    "fcmp", "select", "call", "add", "sub", "mul", "fadd", "fsub", "fmul", "fdiv", "fneg", "sdiv", "udiv", "srem",
    "urem", "frem", "and", "or", "xor", "shl", "lshr", "ashr", "zext", "sext", "trunc", "fptosi", "fptoui", "sitofp",
    "uitofp", "fpext", "fptrunc", "bitcast", "nsw", "nuw", "align", "alloca", "eq", "ne", "slt", "sle", "sgt", "sge",
    "ult", "ule", "ugt", "uge", "olt", "ogt", "oeq", "une", "noalias", "nocapture", "extractelement",
    "insertelement"};

constexpr std::array<std::string_view, 5> kLlvmTypes{"void", "ptr", "half", "float", "double"};

// WGSL's keywords, the builtins the kernels call for launch ids and barriers, and its types; its
// attributes (@compute, @binding) are keywords too.
constexpr std::array<std::string_view, 17> kWgslKeywords{
    "fn", "var", "let", "const", "for", "if", "else", "return", "break", "continue", "true", "false", "enable",
    "storage", "read", "read_write", "workgroupBarrier"};
constexpr std::array<std::string_view, 11> kWgslTypes{"bool", "i32", "u32", "f16", "f32", "vec2", "vec3", "vec4",
                                                      "array", "atomic", "workgroup"};

constexpr std::array<std::string_view, 17> kDtypeNames{
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
    "float64", "half", "float", "double", "int", "ptr"};

bool vector_type(std::string_view w) {
  const size_t digits = w.find_first_of("0123456789");
  if (digits == std::string_view::npos || digits == 0) return false;
  const std::string_view width = w.substr(digits);
  const bool width_ok = width == "2" || width == "3" || width == "4" || width == "8" || width == "16";
  return width_ok && among(kVectorBases, w.substr(0, digits));
}

bool all_caps(std::string_view w) {
  const auto caps = [](char c) { return std::isupper(static_cast<unsigned char>(c)) || is_digit(c) || c == '_'; };
  return w.size() >= 2 && std::all_of(w.begin(), w.end(), caps);
}

Style word_style(std::string_view w, Syntax syntax) {
  switch (syntax) {
    case Syntax::C:
      if (among(kCKeywords, w)) return Style::Keyword;
      return among(kCTypes, w) || vector_type(w) ? Style::Type : Style::Plain;
    case Syntax::LlvmIr:
      if (among(kLlvmKeywords, w)) return Style::Keyword;
      if (among(kLlvmTypes, w) || (w.size() > 1 && w[0] == 'i' && std::all_of(w.begin() + 1, w.end(), is_digit)))
        return Style::Type;
      return Style::Plain;
    case Syntax::Wgsl:
      if (among(kWgslKeywords, w)) return Style::Keyword;
      return among(kWgslTypes, w) ? Style::Type : Style::Plain;
    case Syntax::Listing:
      if (all_caps(w) || w == "True" || w == "False" || w == "None") return Style::Keyword;
      return among(kDtypeNames, w) || vector_type(w) ? Style::Type : Style::Plain;
    case Syntax::Diff:
    case Syntax::None: break;
  }
  return Style::Plain;
}

// A line of `diff -u`: what its first characters say it is, the whole line.
std::vector<Span> diff_line(std::string_view line) {
  const auto whole = [&](Style s) { return std::vector<Span>{{0, line.size(), s}}; };
  if (line.starts_with("---") || line.starts_with("+++")) return whole(Style::Keyword);
  if (line.starts_with("@@")) return whole(Style::Hunk);
  if (line.starts_with('-')) return whole(Style::Removed);
  if (line.starts_with('+')) return whole(Style::Added);
  return {};
}

// The end of a number starting at i: digits, letters (0x, suffixes, exponents), dots, and an exponent's sign.
size_t number_end(std::string_view s, size_t i) {
  const bool hex = s.substr(i, 2) == "0x" || s.substr(i, 2) == "0X";
  size_t j = i;
  while (j < s.size()) {
    const char c = s[j];
    const bool sign = (c == '+' || c == '-') && !hex && j > i && (s[j - 1] == 'e' || s[j - 1] == 'E');
    if (!is_word_char(c) && c != '.' && !sign) break;
    j++;
  }
  return j;
}

// The end of a string literal opened by s[i], or the end of the line when it is not closed.
size_t string_end(std::string_view s, size_t i) {
  const char quote = s[i];
  for (size_t j = i + 1; j < s.size(); j++) {
    if (s[j] == '\\') j++;
    else if (s[j] == quote) return j + 1;
  }
  return s.size();
}

}  // namespace

Syntax syntax_of_backend(std::string_view backend) {
  switch (backend_info(backend).syntax) {
    case SourceSyntax::C: return Syntax::C;
    case SourceSyntax::LlvmIr: return Syntax::LlvmIr;
    case SourceSyntax::Wgsl: return Syntax::Wgsl;
  }
  return Syntax::C;
}

std::vector<Span> highlight(std::string_view line, Syntax syntax, HighlightState& state) {
  std::vector<Span> spans;
  if (syntax == Syntax::None) return spans;
  if (syntax == Syntax::Diff) return diff_line(line);
  size_t i = 0;
  auto add = [&](size_t end, Style style) {
    spans.push_back({i, end, style});
    i = end;
  };
  if (state.in_comment) {
    const size_t close = line.find("*/");
    state.in_comment = close == std::string_view::npos;
    add(state.in_comment ? line.size() : close + 2, Style::Comment);
  }
  const size_t first = line.find_first_not_of(' ');
  while (i < line.size()) {
    const char c = line[i];
    const std::string_view rest = line.substr(i);
    const bool c_comments = syntax == Syntax::C || syntax == Syntax::Wgsl;
    if ((c_comments && rest.starts_with("//")) || (syntax == Syntax::LlvmIr && c == ';')) {
      add(line.size(), Style::Comment);
    } else if (c_comments && rest.starts_with("/*")) {
      const size_t close = line.find("*/", i + 2);
      state.in_comment = close == std::string_view::npos;
      add(state.in_comment ? line.size() : close + 2, Style::Comment);
    } else if (syntax == Syntax::C && c == '#' && i == first) {
      size_t j = i + 1;
      while (j < line.size() && is_word_char(line[j])) j++;
      add(j, Style::Keyword);
    } else if (c == '"' || (syntax == Syntax::Listing && c == '\'')) {
      add(string_end(line, i), Style::String);
    } else if (is_digit(c) || (c == '.' && i + 1 < line.size() && is_digit(line[i + 1]))) {
      add(number_end(line, i), Style::Number);
    } else if (syntax == Syntax::Wgsl && c == '@') {
      size_t j = i + 1;
      while (j < line.size() && is_word_char(line[j])) j++;
      add(j, Style::Keyword);
    } else if (syntax == Syntax::LlvmIr && (c == '%' || c == '@')) {
      size_t j = i + 1;
      while (j < line.size() && (is_word_char(line[j]) || line[j] == '.')) j++;
      i = j;  // a value or function name: %0 is a name, not a number
    } else if (is_word_start(c)) {
      size_t j = i;
      while (j < line.size() && is_word_char(line[j])) j++;
      const Style s = word_style(line.substr(i, j - i), syntax);
      if (s == Style::Plain) i = j;
      else add(j, s);
    } else {
      i++;
    }
  }
  return spans;
}

}  // namespace tr::tui
