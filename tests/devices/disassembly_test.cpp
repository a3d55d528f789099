// The disassemblers' listings read into instructions and lines: objdump's of a shared object, nvdisasm's
// and cuobjdump's of a cubin (as CUDA 13's tools print them), and the check that a compile with line
// tables made the code that ran.
#include <gtest/gtest.h>

#include <algorithm>

#include "devices/disassembly.h"
#include "devices/llvm_line_table.h"

namespace tr {
namespace {

constexpr const char* kObjdump = R"listing(
k.so:     file format elf64-x86-64


Disassembly of section .text:

0000000000001040 <deregister_tm_clones>:
    1040:	lea    0x2fd9(%rip),%rdi        # 4020 <__TMC_END__>

0000000000001110 <E_4>:
E_4():
/tmp/x/kernel.c:4
    1110:	vmovups (%rsi),%xmm0
/tmp/x/kernel.c:5 (discriminator 2)
    1114:	vaddps %xmm0,%xmm0,%xmm0
    1118:	vmovups %xmm0,(%rdi)
/tmp/x/kernel.c:7
    111c:	ret
)listing";

TEST(Disassembly, ObjdumpGivesEachInstructionItsFunctionAndLine) {
  const std::vector<AsmInstruction> code = parse_objdump(kObjdump, "kernel.c");
  ASSERT_EQ(code.size(), 5u);
  EXPECT_EQ(code[0].function, "deregister_tm_clones");
  EXPECT_EQ(code[0].line, 0);
  EXPECT_EQ(code[1].function, "E_4");
  EXPECT_EQ(code[1].address, 0x1110u);
  EXPECT_EQ(code[1].text, "vmovups (%rsi),%xmm0");
  EXPECT_EQ(code[1].line, 4);
  EXPECT_EQ(code[2].line, 5);  // a discriminator is part of the same line
  EXPECT_EQ(code[3].text, "vmovups %xmm0,(%rdi)");
  EXPECT_EQ(code[3].line, 5);
  EXPECT_EQ(code[4].line, 7);
  // another file's lines (an inlined header) are not the kernel's
  EXPECT_EQ(parse_objdump(kObjdump, "other.c")[1].line, 0);
}

constexpr const char* kNvdisasm = R"listing(	.target	sm_90
//--------------------- .text.E_4                 --------------------------
	.section	.text.E_4,"ax",@progbits
        .global         E_4
E_4:
.text.E_4:
	//## File "/tmp/asmt/kernel.cu", line 1
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "/tmp/asmt/kernel.cu", line 3
        /*0050*/                   IMAD.WIDE R2, R7, 0x4, R2 ;
	//## File "/tmp/asmt/kernel.cu", line 4
        /*0090*/                   STG.E desc[UR4][R4.64], R7 ;
.L_x_1:
        /*00a0*/                   EXIT ;
.L_x_0:
        /*00b0*/                   BRA `(.L_x_0);
)listing";

constexpr const char* kCuobjdump = R"listing(
	code for sm_90
		Function : E_4
	.headerflags	@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;        /* 0x00000a00ff017b82 */
                                                                 /* 0x000fe20000000800 */
        /*0010*/                   S2R R7, SR_CTAID.X ;          /* 0x0000000000077919 */
                                                                 /* 0x000e2e0000002500 */
)listing";

TEST(Disassembly, NvdisasmGivesSassWithLinesAndCuobjdumpWithout) {
  const std::vector<AsmInstruction> code = parse_nvdisasm(kNvdisasm);
  ASSERT_EQ(code.size(), 5u);
  EXPECT_EQ(code[0].function, "E_4");
  EXPECT_EQ(code[0].text, "LDC R1, c[0x0][0x28]");
  EXPECT_EQ(code[0].line, 1);
  EXPECT_EQ(code[2].address, 0x90u);
  EXPECT_EQ(code[2].text, "STG.E desc[UR4][R4.64], R7");
  EXPECT_EQ(code[2].line, 4);
  EXPECT_EQ(code[3].text, "EXIT");
  EXPECT_EQ(code[3].line, 4);  // a label does not end the line's run
  EXPECT_EQ(code[4].text, "BRA `(.L_x_0)");
  const std::vector<AsmInstruction> plain = parse_nvdisasm(kCuobjdump);
  ASSERT_EQ(plain.size(), 2u);
  EXPECT_EQ(plain[1].function, "E_4");
  EXPECT_EQ(plain[1].address, 0x10u);
  EXPECT_EQ(plain[1].text, "S2R R7, SR_CTAID.X");
  EXPECT_EQ(plain[1].line, 0);
}

TEST(Disassembly, SameCodeComparesInstructionsNotLines) {
  std::vector<AsmInstruction> a = parse_nvdisasm(kNvdisasm), b = a;
  for (AsmInstruction& i : b) i.line = 0;
  EXPECT_TRUE(same_code(a, b));
  b[2].text = "STG.E.64 desc[UR4][R4.64], R6";
  EXPECT_FALSE(same_code(a, b));
  b.pop_back();
  EXPECT_FALSE(same_code(a, b));
}

TEST(Disassembly, LlvmLineTableNamesEachInstructionsOwnLine) {
  const std::string ir = "declare float @llvm.exp2.f32(float)\n"
                         "define void @E_4(ptr noalias %data0) nounwind {\n"
                         "entry:\n"
                         "  %t0 = getelementptr inbounds float, ptr %data0, i32 1\n"
                         "  store float 1.0, ptr %t0, align 4\n"
                         "  ret void\n"
                         "}\n";
  const std::string lined = with_line_table(ir);
  // the text keeps its lines where they were: line N of the IR is line N of what clang reads
  const auto line_of = [](const std::string& text, const std::string& what) {
    return std::count(text.begin(), text.begin() + static_cast<long>(text.find(what)), '\n');
  };
  EXPECT_EQ(line_of(lined, "\nentry:\n"), line_of(ir, "\nentry:\n"));
  EXPECT_EQ(line_of(lined, "  ret void"), line_of(ir, "  ret void"));
  EXPECT_NE(lined.find("define void @E_4(ptr noalias %data0) nounwind !dbg !"), std::string::npos) << lined;
  EXPECT_NE(lined.find("declare float @llvm.exp2.f32(float)\n"), std::string::npos) << "a declaration has no body";
  EXPECT_NE(lined.find("\nentry:\n"), std::string::npos) << "a label takes no location";
  EXPECT_NE(lined.find("align 4, !dbg !"), std::string::npos) << lined;
  EXPECT_NE(lined.find("ret void, !dbg !"), std::string::npos) << lined;
  EXPECT_NE(lined.find("!DILocation(line: 4, scope: !"), std::string::npos) << lined;
  EXPECT_NE(lined.find("!DILocation(line: 6, scope: !"), std::string::npos) << lined;
  EXPECT_NE(lined.find("!DISubprogram(name: \"E_4\""), std::string::npos) << lined;
  EXPECT_EQ(lined.find("!DILocation(line: 3,"), std::string::npos) << lined;
}

}  // namespace
}  // namespace tr
