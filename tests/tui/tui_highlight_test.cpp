// Syntax classes for the Source pane (every backend) and the AST and UOps listings.
#include <gtest/gtest.h>

#include "viz/tui/highlight.h"

namespace tr::tui {
namespace {

// The styled words of a line, as "style:text" pieces.
std::vector<std::string> styled(std::string_view line, Syntax syntax, HighlightState& state) {
  static const char* names[] = {"plain", "keyword", "type", "number", "string", "comment"};
  std::vector<std::string> out;
  for (const Span& s : highlight(line, syntax, state))
    out.push_back(std::string(names[static_cast<int>(s.style)]) + ":" +
                  std::string(line.substr(s.begin, s.end - s.begin)));
  return out;
}

std::vector<std::string> styled(std::string_view line, Syntax syntax) {
  HighlightState state;
  return styled(line, syntax, state);
}

using V = std::vector<std::string>;

TEST(TuiHighlight, CStyleKeywordsTypesNumbersAndComments) {
  EXPECT_EQ(styled("  for (int ridx0 = 0; ridx0 < 2; ridx0++) { // loop", Syntax::C),
            (V{"keyword:for", "type:int", "number:0", "number:2", "comment:// loop"}));
  EXPECT_EQ(styled("float4 v = 1.5e-3f; half h;", Syntax::C), (V{"type:float4", "number:1.5e-3f", "type:half"}));
  EXPECT_EQ(styled("#include <math.h>", Syntax::C), (V{"keyword:#include"}));
  EXPECT_EQ(styled("  int gidx0 = get_global_id(0); /* 2 */", Syntax::C),
            (V{"type:int", "keyword:get_global_id", "number:0", "comment:/* 2 */"}));
  EXPECT_EQ(styled("x1 = data0[i2];", Syntax::C), V{}) << "digits inside names are not numbers";
}

TEST(TuiHighlight, BlockCommentsSpanLines) {
  HighlightState state;
  EXPECT_EQ(styled("a /* one", Syntax::C, state), (V{"comment:/* one"}));
  EXPECT_TRUE(state.in_comment);
  EXPECT_EQ(styled("two */ return", Syntax::C, state), (V{"comment:two */", "keyword:return"}));
  EXPECT_FALSE(state.in_comment);
}

TEST(TuiHighlight, LlvmValueNamesAreNotNumbers) {
  EXPECT_EQ(styled("  %t1 = load i32, ptr %0, align 4 ; x", Syntax::LlvmIr),
            (V{"keyword:load", "type:i32", "type:ptr", "keyword:align", "number:4", "comment:; x"}));
}

TEST(TuiHighlight, WgslAttributesDeclarationsAndTypes) {
  EXPECT_EQ(styled("@group(0) @binding(1) var<storage, read> data1: array<f32>;", Syntax::Wgsl),
            (V{"keyword:@group", "number:0", "keyword:@binding", "number:1", "keyword:var", "keyword:storage",
               "keyword:read", "type:array", "type:f32"}));
  EXPECT_EQ(styled("  var acc0: vec4<f16> = select(a,b,c); // x", Syntax::Wgsl),
            (V{"keyword:var", "type:vec4", "type:f16", "comment:// x"}));
}

TEST(TuiHighlight, ListingsColourOpsDtypesAndArguments) {
  EXPECT_EQ(styled("   0 DEFINE_GLOBAL  : ptr.int        []          (0, 'data0', True)", Syntax::Listing),
            (V{"number:0", "keyword:DEFINE_GLOBAL", "type:ptr", "type:int", "number:0", "string:'data0'",
               "keyword:True"}));
  EXPECT_EQ(styled("  1  ┗━┳ SUM (0,)", Syntax::Listing), (V{"number:1", "keyword:SUM", "number:0"}));
}

TEST(TuiHighlight, BackendsPickTheirRules) {
  EXPECT_EQ(syntax_of_backend("llvm"), Syntax::LlvmIr);
  EXPECT_EQ(syntax_of_backend("metal"), Syntax::C);
  EXPECT_EQ(syntax_of_backend("wgsl"), Syntax::Wgsl);
  EXPECT_TRUE(styled("anything 1", Syntax::None).empty());
}

}  // namespace
}  // namespace tr::tui
