/**
 * sin and cos that give the same bits in every JavaScript engine.
 *
 * `Math.sin` and `Math.cos` are only specified as "implementation-approximated", and engines
 * differ in the last bit: Node 20's V8 (11.3) runs fdlibm 5.3 (V8's base/ieee754), Chromium's
 * newer V8 a different libm, and about 1.5% of the angles CartPole sees come out one ulp apart
 * (measured on 200,000 angles in [−0.42, 0.42]: 2,707 sines and 3,239 cosines differ). In a float64
 * physics loop that ulp grows until a float32 observation, then a sampled action, then an episode
 * differs: the page and the CLI drifted apart after about 55 QuickStart updates (issue 14).
 *
 * These are fdlibm's algorithms, written out here so that every engine runs the same float64
 * operations in the same order: the result is what Node 20's Math.sin / Math.cos return, bit for
 * bit (tests/unit/envs/portableTrig.test.ts), so the CLI's numbers do not change.
 *
 *   x = n·π/2 + r, |r| ≤ π/4, r = r_hi + r_lo (Cody–Waite with π/2 in 33-bit parts);
 *   sin r ≈ r + S1·r³ + … + S6·r¹³,   cos r ≈ 1 − r²/2 + C1·r⁴ + … + C6·r¹⁴ (Remez, error < 2⁻⁵⁸);
 *   sin x = (sin r, cos r, −sin r, −cos r)[n mod 4],  cos x = (cos r, −sin r, −cos r, sin r)[n mod 4].
 *
 * Arguments beyond 2¹⁹·π/2 (≈ 823,550) would need fdlibm's multi-precision reduction by 2/π; no
 * environment here comes near them (their angles are bounded or wrapped), so those fall back to
 * the engine's Math.sin / Math.cos.
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

/** The float64 with the given high word and a zero low word. */
function fromHighWord(hi: number): number {
  u32[HI] = hi >>> 0;
  u32[LO] = 0;
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
