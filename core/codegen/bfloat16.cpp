// The bfloat16 pass: no renderer meets bfloat16. Its values are their 16 bits (uint16) wherever they only
// move (buffers, loads, stores, accumulators, vectors, WHERE, a matrix unit's operands) and float wherever
// they are computed: an op on bfloat16 reads each source as float (its bits are float32's top half) and,
// where its result is bfloat16, rounds the float back to 16 bits, to nearest with ties to even, so each
// step rounds as bfloat16 arithmetic would. float holds every bfloat16 exactly, so a cast from bfloat16
// goes through float, and a cast to it rounds float.
#include "core/codegen/lowering.h"

namespace tr {
namespace {

constexpr DType kBits = DType::UInt16;
constexpr DType kWord = DType::UInt32;

bool is_bf16(const UGraph& g, int n) { return g[n].dtype == DType::BFloat16; }

int word_const(UGraph& g, int64_t v, int vec) { return g.cnst(ConstValue{v}, kWord, vec); }

// bits << 16 read as float: the bfloat16's value.
int to_float(UGraph& g, int bits, int vec) {
  const int word = g.cast(kWord, bits, vec);
  return g.alu(Op::Bitcast, DType::Float32, {g.alu(Op::Mul, kWord, {word, word_const(g, 65536, vec)}, vec)}, vec);
}

// f's float32 bits rounded to their top 16, ties to even (adding 0x7fff and the kept half's last bit
// carries into it exactly when the dropped half is past the midpoint, or at it with that bit odd); NaN
// becomes the quiet NaN, which the carry could turn into infinity.
int to_bits(UGraph& g, int f, int vec) {
  const int word = g.alu(Op::Bitcast, kWord, {f}, vec);
  const int high = g.alu(Op::IDiv, kWord, {word, word_const(g, 65536, vec)}, vec);
  const int odd = g.alu(Op::And, kWord, {high, word_const(g, 1, vec)}, vec);
  const int biased = g.alu(Op::Add, kWord, {g.alu(Op::Add, kWord, {word, word_const(g, 0x7fff, vec)}, vec), odd}, vec);
  const int rounded = g.cast(kBits, g.alu(Op::IDiv, kWord, {biased, word_const(g, 65536, vec)}, vec), vec);
  const int nan = g.alu(Op::CmpNe, DType::Bool, {f, f}, vec);
  return g.alu(Op::Where, kBits, {nan, g.cnst(ConstValue{int64_t{0x7fc0}}, kBits, vec), rounded}, vec);
}

// x (a value of dtype `from`, bits where from is bfloat16) as a float32.
int as_float(UGraph& g, int x, DType from, int vec) {
  if (from == DType::BFloat16) return to_float(g, x, vec);
  return from == DType::Float32 ? x : g.cast(DType::Float32, x, vec);
}

}  // namespace

bool touches_bfloat16(const UGraph& g) {
  for (int n : toposort(g))
    if (is_bf16(g, n)) return true;
  return false;
}

UGraph bfloat16(const UGraph& g) {
  return rewrite(g, [&](UGraph& out, int old, const UOp& moved) {
    const UOp& was = g[old];
    UOp u = moved;
    const bool result_bf16 = was.dtype == DType::BFloat16;
    if (result_bf16) u.dtype = kBits;
    switch (was.kind) {
      case UOpKind::Const:
      case UOpKind::DefineAcc:  // its value is the one it starts from
        if (result_bf16) u.value = int64_t{bfloat16_bits(as_double(was.value))};
        return out.add(u);
      case UOpKind::Cast: {
        const DType from = g[was.srcs[0]].dtype;
        if (!result_bf16 && from != DType::BFloat16) return out.add(u);
        if (from == was.dtype) return moved.srcs[0];
        const int f = as_float(out, moved.srcs[0], from, u.vec);
        return result_bf16 ? to_bits(out, f, u.vec) : (was.dtype == DType::Float32 ? f : out.cast(was.dtype, f, u.vec));
      }
      case UOpKind::Alu: {
        // WHERE and BITCAST move bits; every other op computes in float
        const bool moves = was.alu == Op::Where || was.alu == Op::Bitcast;
        bool reads_bf16 = false;
        for (int s : was.srcs) reads_bf16 = reads_bf16 || is_bf16(g, s);
        if (moves || (!reads_bf16 && !result_bf16)) return out.add(u);
        std::vector<int> srcs;
        for (size_t i = 0; i < was.srcs.size(); i++)
          srcs.push_back(is_bf16(g, was.srcs[i]) ? to_float(out, moved.srcs[i], g[was.srcs[i]].vec) : moved.srcs[i]);
        const int r = out.alu(was.alu, result_bf16 ? DType::Float32 : was.dtype, std::move(srcs), u.vec);
        return result_bf16 ? to_bits(out, r, u.vec) : r;
      }
      // the rest move values without computing on them
      case UOpKind::DefineGlobal: case UOpKind::DefineVar: case UOpKind::DefineLocal: case UOpKind::Special:
      case UOpKind::Range: case UOpKind::EndRange: case UOpKind::Load: case UOpKind::Store: case UOpKind::Assign:
      case UOpKind::If: case UOpKind::EndIf: case UOpKind::Barrier: case UOpKind::Vectorize: case UOpKind::Gep:
      case UOpKind::Shuffle: case UOpKind::Wmma: case UOpKind::Sink: break;
    }
    return out.add(u);
  });
}

}  // namespace tr
