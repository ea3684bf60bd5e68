/**
 * Transcendental functions that give the same bits in every JavaScript engine.
 *
 * `Math.sin`, `Math.exp`, `Math.log`… are only specified as "implementation-approximated", and
 * engines differ in the last bit: Node 20's V8 (11.3) runs fdlibm 5.3 (V8's base/ieee754), Chromium's
 * newer V8 other libms (measured over 200,000 inputs: exp differs for 17,624, log 13,646, sin 4,938,
 * cos 4,659, expm1 253, tanh 252, log1p 88). In a float64 physics loop, in Box–Muller noise or in a
 * policy's exp(logStd) that ulp grows until a float32 observation, then a sampled action, then an
 * episode differs: the page and the CLI drifted apart after about 55 QuickStart updates (issue 14).
 *
 * These are fdlibm's algorithms, written out here so that every engine runs the same float64
 * operations in the same order: the result is what Node 20's Math.* returns, bit for bit
 * (tests/unit/core/portableMath.test.ts), so the CLI's numbers do not change. Everything whose result
 * feeds an episode or an update uses these instead of Math.*: environments, Rng.normal, the actors'
 * policies and log-probabilities. (sqrt is correctly rounded by IEEE 754 everywhere: Math.sqrt is fine.)
 *
 * sin, cos:
 *   x = n·π/2 + r, |r| ≤ π/4, r = r_hi + r_lo (Cody–Waite with π/2 in 33-bit parts);
 *   sin r ≈ r + S1·r³ + … + S6·r¹³,   cos r ≈ 1 − r²/2 + C1·r⁴ + … + C6·r¹⁴ (Remez, error < 2⁻⁵⁸);
 *   sin x = (sin r, cos r, −sin r, −cos r)[n mod 4],  cos x = (cos r, −sin r, −cos r, sin r)[n mod 4].
 *   Arguments beyond 2¹⁹·π/2 (≈ 823,550) would need fdlibm's multi-precision reduction by 2/π; nothing
 *   here comes near them (angles are bounded or wrapped), so those fall back to Math.sin / Math.cos.
 * exp:   x = k·ln2 + r, |r| ≤ ln2/2;  exp r = 1 + r + r·R1(r)/(2 − R1(r)), R1(r) = r − (P1·r² + … + P5·r¹⁰);  exp x = 2^k·exp r.
 * expm1: the same reduction with a correction c for the rounding of r, expm1 r = r + r²/2 + r³/2·(3 − (R + R·r/2))/(6 − r·(3 − R·r/2)).
 * log:   x = 2^k·(1 + f), √2/2 < 1 + f < √2;  s = f/(2 + f), log(1 + f) = 2s + s·R(s²) (R: Lg1·s² + … + Lg7·s¹⁴);  log x = k·ln2 + log(1 + f).
 * log1p: as log, on u = 1 + x rounded, plus the correction c/u for the rounding ((1 + x) − u).
 * log2:  the reduction of log, then log2 x = k + (f − f²/2 + s·(f²/2 + R))/ln 2 with f − f²/2 and 1/ln 2 split in two parts.
 * tanh:  tanh x = −t/(t + 2), t = expm1(−2|x|) for |x| < 1;  1 − 2/(t + 2), t = expm1(2|x|) for 1 ≤ |x| < 22;  ±1 beyond.
 */

// Bit access: the high 32 bits of a float64 (sign, exponent, top 20 bits of the mantissa).
const buf = new ArrayBuffer(8);
const f64 = new Float64Array(buf);
const u32 = new Uint32Array(buf);
// Index of the high word in the Uint32Array view: 1 on little-endian platforms, 0 on big-endian.
const HI = (() => {
  f64[0] = 1; // 0x3FF00000_00000000
  return u32[1] === 0x3ff00000 ? 1 : 0;
})();
const LO = 1 - HI;

function highWord(x: number): number {
  f64[0] = x;
  return u32[HI] | 0;
}

function lowWord(x: number): number {
  f64[0] = x;
  return u32[LO];
}

/** The float64 with the given high and low words. */
function fromWords(hi: number, lo: number): number {
  u32[HI] = hi >>> 0;
  u32[LO] = lo >>> 0;
  return f64[0];
}

/** The float64 with the given high word and a zero low word. */
function fromHighWord(hi: number): number {
  return fromWords(hi, 0);
}

/** x with its low word replaced (the high word kept). */
function withLowWord(x: number, lo: number): number {
  f64[0] = x;
  u32[LO] = lo >>> 0;
  return f64[0];
}

/** x with its high word replaced (the low word kept). */
function withHighWord(x: number, hi: number): number {
  f64[0] = x;
  u32[HI] = hi >>> 0;
  return f64[0];
}

// Polynomial coefficients of fdlibm's k_sin.c and k_cos.c.
const S1 = -1.66666666666666324348e-1;
const S2 = 8.33333333332248946124e-3;
const S3 = -1.98412698298579493134e-4;
const S4 = 2.75573137070700676789e-6;
const S5 = -2.50507602534068634195e-8;
const S6 = 1.58969099521155010221e-10;
const C1 = 4.16666666666666019037e-2;
const C2 = -1.38888888888741095749e-3;
const C3 = 2.48015872894767294178e-5;
const C4 = -2.75573143513906633035e-7;
const C5 = 2.08757232129817482790e-9;
const C6 = -1.13596475577881948265e-11;

/** sin(x + y) for |x| ≤ π/4, y the tail of x (ignored when `hasTail` is false). */
function kernelSin(x: number, y: number, hasTail: boolean): number {
  const ix = highWord(x) & 0x7fffffff;
  if (ix < 0x3e400000) return x; // |x| < 2⁻²⁷: sin x = x to double precision
  const z = x * x;
  const v = z * x;
  const r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  if (!hasTail) return x + v * (S1 + z * r);
  // sin(x + y) ≈ sin x + (1 − x²/2)·y
  return x - (z * (0.5 * y - v * r) - y - v * S1);
}

/** cos(x + y) for |x| ≤ π/4, y the tail of x. */
function kernelCos(x: number, y: number): number {
  const ix = highWord(x) & 0x7fffffff;
  if (ix < 0x3e400000) return 1; // |x| < 2⁻²⁷
  const z = x * x;
  const r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
  if (ix < 0x3fd33333) return 1 - (0.5 * z - (z * r - x * y)); // |x| < 0.3
  // cos(x + y) = (1 − q) − ((x²/2 − q) − (r − x·y)), q = |x|/4 cut to 21 bits (or 0.28125 above 0.78125):
  // 1 − q and x²/2 − q are exact, which keeps the subtraction accurate.
  const qx = ix > 0x3fe90000 ? 0.28125 : fromHighWord(ix - 0x00200000);
  const hz = 0.5 * z - qx;
  const a = 1 - qx;
  return a - (hz - (z * r - x * y));
}

// π/2 = PIO2_1 + PIO2_2 + PIO2_3 + PIO2_3T, each of the first three 33 bits long; PIO2_kT = the rest after k parts.
const INV_PIO2 = 6.36619772367581382433e-1; // 2/π to 53 bits
const PIO2_1 = 1.57079632673412561417;
const PIO2_1T = 6.07710050650619224932e-11;
const PIO2_2 = 6.07710050630396597660e-11;
const PIO2_2T = 2.02226624879595063154e-21;
const PIO2_3 = 2.02226624871116645580e-21;
const PIO2_3T = 8.47842766036889956997e-32;
/** High words of n·π/2 for n = 1…32: near them the first reduction step may cancel. */
const NPIO2_HW = [
  0x3ff921fb, 0x400921fb, 0x4012d97c, 0x401921fb, 0x401f6a7a, 0x4022d97c, 0x4025fdbb, 0x402921fb, 0x402c463a, 0x402f6a7a, 0x4031475c,
  0x4032d97c, 0x40346b9c, 0x4035fdbb, 0x40378fdb, 0x403921fb, 0x403ab41b, 0x403c463a, 0x403dd85a, 0x403f6a7a, 0x40407e4c, 0x4041475c,
  0x4042106c, 0x4042d97c, 0x4043a28c, 0x40446b9c, 0x404534ac, 0x4045fdbb, 0x4046c6cb, 0x40478fdb, 0x404858eb, 0x404921fb,
];

/** The reduced argument of the last `reduce` call: x − n·π/2 = remHi + remLo. */
let remHi = 0;
let remLo = 0;

/**
 * n with x − n·π/2 = remHi + remLo, |remHi| ≤ π/4 (fdlibm's e_rem_pio2.c), for π/4 < |x| ≤ 2¹⁹·π/2.
 */
function reduce(x: number, hx: number): number {
  const ix = hx & 0x7fffffff;
  if (ix < 0x4002d97c) {
    // |x| < 3π/4: n = ±1
    if (hx > 0) {
      let z = x - PIO2_1;
      if (ix !== 0x3ff921fb) {
        remHi = z - PIO2_1T;
        remLo = z - remHi - PIO2_1T;
      } else {
        // x near π/2: a third part of π/2
        z -= PIO2_2;
        remHi = z - PIO2_2T;
        remLo = z - remHi - PIO2_2T;
      }
      return 1;
    }
    let z = x + PIO2_1;
    if (ix !== 0x3ff921fb) {
      remHi = z + PIO2_1T;
      remLo = z - remHi + PIO2_1T;
    } else {
      z += PIO2_2;
      remHi = z + PIO2_2T;
      remLo = z - remHi + PIO2_2T;
    }
    return -1;
  }
  const t = Math.abs(x);
  const n = Math.trunc(t * INV_PIO2 + 0.5);
  let r = t - n * PIO2_1;
  let w = n * PIO2_1T; // the first step is good to 85 bits
  if (n < 32 && ix !== NPIO2_HW[n - 1]) {
    remHi = r - w;
  } else {
    // Cancellation possible: take more parts of π/2 while the result lost more than 16, then 49, bits.
    const e = ix >> 20;
    remHi = r - w;
    if (e - ((highWord(remHi) >> 20) & 0x7ff) > 16) {
      let u = r;
      w = n * PIO2_2;
      r = u - w;
      w = n * PIO2_2T - (u - r - w);
      remHi = r - w;
      if (e - ((highWord(remHi) >> 20) & 0x7ff) > 49) {
        u = r;
        w = n * PIO2_3;
        r = u - w;
        w = n * PIO2_3T - (u - r - w);
        remHi = r - w;
      }
    }
  }
  remLo = r - remHi - w;
  if (hx < 0) {
    remHi = -remHi;
    remLo = -remLo;
    return -n;
  }
  return n;
}

const PIO4_HW = 0x3fe921fb; // |x| with a high word up to this is ≤ π/4 (near enough): no reduction
const MEDIUM_HW = 0x413921fb; // ≈ 2¹⁹·π/2: the largest |x| reduced here

/** sin x, the same bits in every engine (fdlibm; what Node 20's Math.sin gives). */
export function sin(x: number): number {
  const hx = highWord(x);
  const ix = hx & 0x7fffffff;
  if (ix <= PIO4_HW) return kernelSin(x, 0, false);
  if (ix >= 0x7ff00000) return NaN; // ±∞ or NaN
  if (ix > MEDIUM_HW) return Math.sin(x);
  const n = reduce(x, hx);
  switch (n & 3) {
    case 0:
      return kernelSin(remHi, remLo, true);
    case 1:
      return kernelCos(remHi, remLo);
    case 2:
      return -kernelSin(remHi, remLo, true);
    default:
      return -kernelCos(remHi, remLo);
  }
}

/** cos x, the same bits in every engine (fdlibm; what Node 20's Math.cos gives). */
export function cos(x: number): number {
  const hx = highWord(x);
  const ix = hx & 0x7fffffff;
  if (ix <= PIO4_HW) return kernelCos(x, 0);
  if (ix >= 0x7ff00000) return NaN;
  if (ix > MEDIUM_HW) return Math.cos(x);
  const n = reduce(x, hx);
  switch (n & 3) {
    case 0:
      return kernelCos(remHi, remLo);
    case 1:
      return -kernelSin(remHi, remLo, true);
    case 2:
      return -kernelCos(remHi, remLo);
    default:
      return kernelSin(remHi, remLo, true);
  }
}

// ln 2 = LN2_HI + LN2_LO, LN2_HI with 32 trailing zero bits so that k·LN2_HI is exact for |k| < 2000.
const LN2_HI = 6.93147180369123816490e-1; // 0x3FE62E42 FEE00000
const LN2_LO = 1.90821492927058770002e-10; // 0x3DEA39EF 35793C76
const INV_LN2 = 1.44269504088896338700; // 0x3FF71547 652B82FE
const EXP_OVERFLOW = 7.09782712893383973096e2; // above: exp x = ∞
const EXP_UNDERFLOW = -7.45133219101941108420e2; // below: exp x = 0
const TWO_M1000 = 2 ** -1000;
const TWO_1023 = 2 ** 1023;
const TWO_54 = 2 ** 54;

// Coefficients of fdlibm's e_exp.c (R1), s_expm1.c (Q, scaled by 2ⁿ), e_log.c (Lg) and s_log1p.c (same values as Lg).
const P1 = 1.66666666666666019037e-1;
const P2 = -2.77777777770155933842e-3;
const P3 = 6.61375632143793436117e-5;
const P4 = -1.65339022054652515390e-6;
const P5 = 4.13813679705723846039e-8;
const Q1 = -3.33333333333331316428e-2;
const Q2 = 1.58730158725481460165e-3;
const Q3 = -7.93650757867487942473e-5;
const Q4 = 4.00821782732936239552e-6;
const Q5 = -2.01099218183624371326e-7;
const LG1 = 6.666666666666735130e-1;
const LG2 = 3.999999999940941908e-1;
const LG3 = 2.857142874366239149e-1;
const LG4 = 2.222219843214978396e-1;
const LG5 = 1.818357216161805012e-1;
const LG6 = 1.531383769920937332e-1;
const LG7 = 1.479819860511658591e-1;

/** 2^k as a float64, for −1022 ≤ k ≤ 1023. */
function twoTo(k: number): number {
  return fromWords((0x3ff + k) << 20, 0);
}

/** eˣ, the same bits in every engine (fdlibm's e_exp.c as in V8 11: what Node 20's Math.exp gives). */
export function exp(x: number): number {
  const hxs = highWord(x);
  const negative = hxs < 0;
  const hx = hxs & 0x7fffffff;
  if (hx >= 0x40862e42) {
    // |x| ≥ 709.78…
    if (hx >= 0x7ff00000) {
      if (((hx & 0xfffff) | lowWord(x)) !== 0) return NaN;
      return negative ? 0 : x; // exp(−∞) = 0, exp(∞) = ∞
    }
    if (x > EXP_OVERFLOW) return Infinity;
    if (x < EXP_UNDERFLOW) return 0;
  }
  let k = 0;
  let hi = 0;
  let lo = 0;
  let r = x;
  if (hx > 0x3fd62e42) {
    // |x| > ln2/2: x = k·ln2 + r with r = hi − lo
    if (hx < 0x3ff0a2b2) {
      // |x| < 1.5·ln2: k = ±1. V8 returns e itself for exp(1), whose last bit the formula misses.
      if (x === 1) return Math.E;
      hi = negative ? x + LN2_HI : x - LN2_HI;
      lo = negative ? -LN2_LO : LN2_LO;
      k = negative ? -1 : 1;
    } else {
      k = Math.trunc(INV_LN2 * x + (negative ? -0.5 : 0.5));
      hi = x - k * LN2_HI; // exact
      lo = k * LN2_LO;
    }
    r = hi - lo;
  } else if (hx < 0x3e300000) {
    return 1 + x; // |x| < 2⁻²⁸
  }
  const t = r * r;
  const c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  if (k === 0) return 1 - ((r * c) / (c - 2) - r);
  const y = 1 - (lo - (r * c) / (2 - c) - hi);
  if (k >= -1021) return k === 1024 ? y * 2 * TWO_1023 : y * twoTo(k);
  return y * twoTo(k + 1000) * TWO_M1000; // subnormal results
}

/** eˣ − 1, accurate near 0 (fdlibm's s_expm1.c: what Node 20's Math.expm1 gives). */
export function expm1(x: number): number {
  const hxs = highWord(x);
  const negative = hxs < 0;
  const hx = hxs & 0x7fffffff;
  if (hx >= 0x4043687a) {
    // |x| ≥ 56·ln2
    if (hx >= 0x40862e42) {
      if (hx >= 0x7ff00000) {
        if (((hx & 0xfffff) | lowWord(x)) !== 0) return NaN;
        return negative ? -1 : x;
      }
      if (x > EXP_OVERFLOW) return Infinity;
    }
    if (negative) return -1; // eˣ < 2⁻⁵⁶: −1 to double precision
  }
  let k = 0;
  let c = 0; // the rounding error of r = x − k·ln2
  let r = x;
  if (hx > 0x3fd62e42) {
    let hi: number;
    let lo: number;
    if (hx < 0x3ff0a2b2) {
      hi = negative ? x + LN2_HI : x - LN2_HI;
      lo = negative ? -LN2_LO : LN2_LO;
      k = negative ? -1 : 1;
    } else {
      k = Math.trunc(INV_LN2 * x + (negative ? -0.5 : 0.5));
      hi = x - k * LN2_HI;
      lo = k * LN2_LO;
    }
    r = hi - lo;
    c = hi - r - lo;
  } else if (hx < 0x3c900000) {
    return x; // |x| < 2⁻⁵⁴
  }
  const hfx = 0.5 * r;
  const hxs2 = r * hfx;
  const r1 = 1 + hxs2 * (Q1 + hxs2 * (Q2 + hxs2 * (Q3 + hxs2 * (Q4 + hxs2 * Q5))));
  const t = 3 - r1 * hfx;
  let e = hxs2 * ((r1 - t) / (6 - r * t));
  if (k === 0) return r - (r * e - hxs2);
  e = r * (e - c) - c;
  e -= hxs2;
  if (k === -1) return 0.5 * (r - e) - 0.5;
  if (k === 1) return r < -0.25 ? -2 * (e - (r + 0.5)) : 1 + 2 * (r - e);
  if (k <= -2 || k > 56) {
    // eˣ − 1 = 2^k·(1 − (e − r)) − 1
    const y = 1 - (e - r);
    return (k === 1024 ? y * 2 * TWO_1023 : y * twoTo(k)) - 1;
  }
  if (k < 20) return (fromWords(0x3ff00000 - (0x200000 >> k), 0) - (e - r)) * twoTo(k); // (1 − 2⁻ᵏ) − (e − r)
  return (r - (e + twoTo(-k)) + 1) * twoTo(k);
}

/** The natural logarithm, the same bits in every engine (fdlibm's e_log.c: what Node 20's Math.log gives). */
export function log(x: number): number {
  let hx = highWord(x);
  let k = 0;
  let v = x;
  if (hx < 0x00100000) {
    // x < 2⁻¹⁰²², zero or negative
    if (((hx & 0x7fffffff) | lowWord(x)) === 0) return -Infinity;
    if (hx < 0) return NaN;
    k -= 54;
    v *= TWO_54; // subnormal: scale up
    hx = highWord(v);
  }
  if (hx >= 0x7ff00000) return v + v; // ∞ or NaN
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  const i = (hx + 0x95f64) & 0x100000; // mantissa above √2: divide by 2
  v = withHighWord(v, hx | (i ^ 0x3ff00000));
  k += i >> 20;
  const f = v - 1;
  if ((0x000fffff & (2 + hx)) < 3) {
    // −2⁻²⁰ ≤ f < 2⁻²⁰: log(1 + f) ≈ f − f²/2 + f³/3
    if (f === 0) return k === 0 ? 0 : k * LN2_HI + k * LN2_LO;
    const R = f * f * (0.5 - (1 / 3) * f);
    return k === 0 ? f - R : k * LN2_HI - (R - k * LN2_LO - f);
  }
  const s = f / (2 + f);
  const z = s * s;
  const w = z * z;
  const t1 = w * (LG2 + w * (LG4 + w * LG6));
  const t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
  const R = t2 + t1;
  if (((hx - 0x6147a) | (0x6b851 - hx)) > 0) {
    // f not small: log(1 + f) = f − (f²/2 − s·(f²/2 + R))
    const hfsq = 0.5 * f * f;
    return k === 0 ? f - (hfsq - s * (hfsq + R)) : k * LN2_HI - (hfsq - (s * (hfsq + R) + k * LN2_LO) - f);
  }
  return k === 0 ? f - s * (f - R) : k * LN2_HI - (s * (f - R) - k * LN2_LO - f);
}

/** log(1 + f) − f + f²/2 = s·(f²/2 + R(s²)), s = f/(2 + f), for √2/2 < 1 + f < √2 (FreeBSD's k_log.h). */
function kernelLog1p(f: number): number {
  const s = f / (2 + f);
  const z = s * s;
  const w = z * z;
  const t1 = w * (LG2 + w * (LG4 + w * LG6));
  const t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
  return s * (0.5 * f * f + (t2 + t1));
}

// 1/ln 2 = IVLN2_HI + IVLN2_LO, IVLN2_HI with 32 bits.
const IVLN2_HI = 1.44269504072144627571; // 0x3FF71547 65200000
const IVLN2_LO = 1.67517131648865118353e-10; // 0x3DE705FC 2EEFA200

/** log₂ x, the same bits in every engine (FreeBSD's e_log2.c as in V8 11: what Node 20's Math.log2 gives). */
export function log2(x: number): number {
  let hx = highWord(x);
  const lx = lowWord(x);
  let k = 0;
  let v = x;
  if (hx < 0x00100000) {
    if (((hx & 0x7fffffff) | lx) === 0) return -Infinity;
    if (hx < 0) return NaN;
    k -= 54;
    v *= TWO_54;
    hx = highWord(v);
  }
  if (hx >= 0x7ff00000) return v + v;
  if (hx === 0x3ff00000 && lx === 0) return 0;
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  const i = (hx + 0x95f64) & 0x100000;
  v = withHighWord(v, hx | (i ^ 0x3ff00000));
  k += i >> 20;
  const f = v - 1;
  const hfsq = 0.5 * f * f;
  const r = kernelLog1p(f);
  // f − f²/2 = hi + lo exactly-ish (hi with 32 zero low bits), then (hi + lo)/ln 2 in two parts, then + k.
  const hi = withLowWord(f - hfsq, 0);
  const lo = f - hi - hfsq + r;
  const valHi = hi * IVLN2_HI;
  let valLo = (lo + hi) * IVLN2_LO + lo * IVLN2_HI;
  const w = k + valHi;
  valLo += k - w + valHi;
  return valLo + w;
}

/** log(1 + x), accurate near 0 (fdlibm's s_log1p.c: what Node 20's Math.log1p gives). */
export function log1p(x: number): number {
  const hx = highWord(x);
  const ax = hx & 0x7fffffff;
  let k = 1;
  let f = 0;
  let hu = 0;
  let c = 0;
  if (hx < 0x3fda827a) {
    // 1 + x < √2
    if (ax >= 0x3ff00000) return x === -1 ? -Infinity : NaN; // x ≤ −1
    if (ax < 0x3e200000) return ax < 0x3c900000 ? x : x - x * x * 0.5; // |x| < 2⁻²⁹
    if (hx > 0 || hx <= (0xbfd2bec4 | 0)) {
      // −0.2929 < x < 0.41422: f = x exactly
      k = 0;
      f = x;
      hu = 1;
    }
  }
  if (hx >= 0x7ff00000) return x + x;
  if (k !== 0) {
    let u: number;
    if (hx < 0x43400000) {
      u = 1 + x;
      hu = highWord(u);
      k = (hu >> 20) - 1023;
      c = (k > 0 ? 1 - (u - x) : x - (u - 1)) / u; // the rounding error of 1 + x, relative
    } else {
      u = x;
      hu = highWord(u);
      k = (hu >> 20) - 1023;
      c = 0;
    }
    hu &= 0x000fffff;
    if (hu < 0x6a09e) {
      u = withHighWord(u, hu | 0x3ff00000);
    } else {
      k += 1;
      u = withHighWord(u, hu | 0x3fe00000);
      hu = (0x00100000 - hu) >> 2;
    }
    f = u - 1;
  }
  const hfsq = 0.5 * f * f;
  if (hu === 0) {
    // |f| < 2⁻²⁰
    if (f === 0) return k === 0 ? 0 : k * LN2_HI + (c + k * LN2_LO);
    const R = hfsq * (1 - (2 / 3) * f);
    return k === 0 ? f - R : k * LN2_HI - (R - (k * LN2_LO + c) - f);
  }
  const s = f / (2 + f);
  const z = s * s;
  const R = z * (LG1 + z * (LG2 + z * (LG3 + z * (LG4 + z * (LG5 + z * (LG6 + z * LG7))))));
  return k === 0 ? f - (hfsq - s * (hfsq + R)) : k * LN2_HI - (hfsq - (s * (hfsq + R) + (k * LN2_LO + c)) - f);
}

/** tanh x, the same bits in every engine (fdlibm's s_tanh.c: what Node 20's Math.tanh gives). */
export function tanh(x: number): number {
  const jx = highWord(x);
  const ix = jx & 0x7fffffff;
  if (ix >= 0x7ff00000) return Number.isNaN(x) ? NaN : Math.sign(x); // ±∞ → ±1
  let z: number;
  if (ix < 0x3e300000) return x; // |x| < 2⁻²⁸ (keeps −0)
  if (ix < 0x3ff00000) {
    const t = expm1(-2 * Math.abs(x));
    z = -t / (t + 2);
  } else if (ix < 0x40360000) {
    const t = expm1(2 * Math.abs(x));
    z = 1 - 2 / (t + 2);
  } else {
    z = 1; // |x| ≥ 22
  }
  return jx >= 0 ? z : -z;
}
