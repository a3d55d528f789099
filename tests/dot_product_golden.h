#pragma once
// The notes' dot product [1,2]·[3,4] as NOOPT lowers it: the UOps that the seed test and the golden
// DEBUG 5 test both expect.
namespace tr::testing {

inline constexpr const char* kDotProductNooptUops =
    "   0 DEFINE_GLOBAL  : ptr.int        []          (0, 'data0', True)\n"
    "   1 DEFINE_GLOBAL  : ptr.int        []          (1, 'data1', False)\n"
    "   2 DEFINE_GLOBAL  : ptr.int        []          (2, 'data2', False)\n"
    "   3 DEFINE_ACC     : int            []          0\n"
    "   4 CONST          : int            []          0\n"
    "   5 CONST          : int            []          2\n"
    "   6 RANGE          : int            [4, 5]      'ridx0'\n"
    "   7 LOAD           : int            [1, 6]      None\n"
    "   8 LOAD           : int            [2, 6]      None\n"
    "   9 ALU            : int            [7, 8]      MUL\n"
    "  10 ALU            : int            [3, 9]      ADD\n"
    "  11 ASSIGN         : int            [3, 10]     None\n"
    "  12 ENDRANGE       :                [6]         None\n"
    "  13 STORE          :                [0, 4, 3]   None\n";

}  // namespace tr::testing
