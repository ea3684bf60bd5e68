;; Float32 kernels with 128-bit SIMD, bit-identical to tfjs-wasm's scalar ones (see kernels.ts).
;; Assembled by `npm run build:wasm` into kernelsWasm.ts; tests/unit/core/simdKernels.test.ts checks
;; that the committed bytes are what this text assembles to.
;;
;; Exports:
;;   memory          the module's own memory (the caller grows it)
;;   tanh(ptr, n)    tanh of the n float32s at byte offset ptr, in place
;;   dense(x, xStride, w, b, y, rows, inDim, outP, relu)
;;                   y[r, j] = fl(acc + b[j]), acc = Σ_k fl(x[r, k] · w[k, j]) summed from +0 in k order,
;;                   one float32 rounding per operation (XNNPACK's order: wasm SIMD has no fused
;;                   multiply-add, so nothing is contracted), then if relu ≠ 0, y < 0 ? 0 : y;
;;                   w [inDim, outP], b [outP], y [rows, outP], row r of x at x + 4·r·xStride,
;;                   outP a multiple of 4.
;;   gemm(a, aRow, aK, b, c, m, k, nP)
;;                   C = A·B as tfjs-wasm's plain (transposed-operand) loop sums it: the shared
;;                   dimension in blocks of 48, each block's sum from +0 in k order, and
;;                   C[i, j] = ((0 + s_1) + s_2) + …; A[i, kk] at a + i·aRow + kk·aK (byte strides,
;;                   so a transposed A needs no copy), B [k, nP] and C [m, nP] row-major, nP a
;;                   multiple of 4.
;;   adam(g, m, v, th, nP, scale, b1, c1, b2, c2, om1, om2, eps, negLr)
;;                   one Adam step in place on m, v, th (nP float32s each, nP a multiple of 4), every
;;                   operation one float32 rounding in FusedAdam's order: g' = g·scale (scale ≠ 1 or
;;                   not), m = m·b1 + g'·c1, v = v·b2 + (g'·g')·c2,
;;                   th = ((m/om1) / (√(v/om2) + eps))·negLr + th.
;;   colsum(x, rows, colsP, y)
;;                   y[j] = Σ_r x[r, j], each from +0 in row order (tfjs-wasm's Sum over the first
;;                   axis: it transposes, then sums each row of the transpose in order); x [rows,
;;                   colsP] row-major, colsP a multiple of 4.
;;
;; V8 does not inline wasm calls, and a call spills every vector register, so tanh is one loop body.
(module
  (memory (export "memory") 1)

  ;; tanh in each lane, exactly as musl's tanhf, on w = the bits of |x| (musl compares bit patterns,
  ;; so NaN, whose w is above every threshold, takes the first branch):
  ;;   w > 0x41200000 (|x| > 10, ±Inf, NaN): t = 1 + 0/|x|
  ;;   w > 0x3f0c9f54 (|x| > ln(3)/2):       t = 1 − 2/(e + 2),  e = expm1f(2|x|)
  ;;   w > 0x3e82c578 (|x| > ln(5/3)/2):     t = e/(e + 2),      e = expm1f(2|x|)
  ;;   w ≥ 0x00800000 (normal):              t = −e/(e + 2),     e = expm1f(−2|x|)
  ;;   else (subnormal, ±0):                 t = |x|
  ;; then the sign of x goes back on t. Every lane computes every branch and masks select; the four
  ;; divisions are one, q = num/den with each lane's own operands (the same operation on the same
  ;; values: the same bits).
  ;;
  ;; expm1f (musl, FreeBSD s_expm1f.c) only for the arguments tanhf gives it, a = 2|x| in
  ;; (0.5108, 20] and a = −2|x| in [−0.5108, −2^-125]. There:
  ;;   - its huge/NaN filter (|a| ≥ 27·ln2) changes nothing: only positive a ≤ 20 reach it, below its
  ;;     overflow threshold 88.72, so they fall through to the reduction;
  ;;   - k = 0 for |a| ≤ ln2/2 (negative a only: positive ones are > 0.51); k = ±1 for
  ;;     ln2/2 < |a| < 1.5·ln2 (musl's special case hi = a ∓ ln2_hi, lo = ±ln2_lo is the general
  ;;     a − t·ln2_hi, t·ln2_lo with t = ±1, both products exact); otherwise (positive a in
  ;;     [1.5·ln2, 20]) k = trunc(a/ln2 + 0.5) in {1, 2, …, 29};
  ;;   so k is in {−1, 0, 1, …, 29}: its branches for k < −1, k > 56 and k = 128 are never taken and
  ;;   are left out. For k = 0 the general formulas give hi = a, lo = 0, r = a, c = 0 exactly.
  ;;   a = k·ln2 + r, r = hi − lo, c = (hi − r) − lo; e^r − 1 by musl's rational approximation.
  (func (export "tanh") (param $p i32) (param $n i32)
    (local $end i32) (local $left i32)
    (local $x v128) (local $w v128) (local $upper v128) (local $inA v128) (local $big v128)
    (local $a v128) (local $ha v128) (local $k v128) (local $t v128) (local $hi v128) (local $lo v128)
    (local $r v128) (local $c v128) (local $hfx v128) (local $hxs v128) (local $r1 v128) (local $e v128)
    (local $em v128) (local $twopk v128) (local $twomk v128) (local $q v128)
    (local.set $end (i32.add (local.get $p) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (loop $vectors
        (local.set $left (i32.sub (local.get $end) (local.get $p)))
        (br_if $done (i32.le_s (local.get $left) (i32.const 0)))
        ;; the last n mod 4 values go through the same code in the low lanes of one vector
        (if (i32.ge_s (local.get $left) (i32.const 16))
          (then (local.set $x (v128.load (local.get $p))))
          (else
            (local.set $x (v128.load32_zero (local.get $p)))
            (if (i32.gt_s (local.get $left) (i32.const 4))
              (then (local.set $x (v128.load32_lane offset=4 1 (local.get $p) (local.get $x)))))
            (if (i32.gt_s (local.get $left) (i32.const 8))
              (then (local.set $x (v128.load32_lane offset=8 2 (local.get $p) (local.get $x)))))))

        (local.set $w (v128.and (local.get $x) (v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff)))
        (local.set $upper (i32x4.gt_s (local.get $w) (v128.const i32x4 0x3e82c578 0x3e82c578 0x3e82c578 0x3e82c578)))
        (local.set $inA (i32x4.gt_s (local.get $w) (v128.const i32x4 0x3f0c9f54 0x3f0c9f54 0x3f0c9f54 0x3f0c9f54)))
        (local.set $big (i32x4.gt_s (local.get $w) (v128.const i32x4 0x41200000 0x41200000 0x41200000 0x41200000)))
        ;; a = ±2|x| (fl(−2|x|) = −fl(2|x|) exactly), negative exactly where not upper
        (local.set $a (f32x4.mul (local.get $w) (v128.bitselect (v128.const f32x4 2 2 2 2) (v128.const f32x4 -2 -2 -2 -2) (local.get $upper))))
        (local.set $ha (v128.and (local.get $a) (v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff)))

        ;; expm1f(a). k: 0 when |a| ≤ ln2/2 (0x3eb17218); ±1 when also |a| < 1.5·ln2 (0x3f851592);
        ;; else trunc(fl(fl(invln2·a) ± 0.5)) (musl's float-to-int conversion truncates)
        (local.set $k
          (v128.bitselect
            (v128.bitselect
              (v128.bitselect (v128.const i32x4 1 1 1 1) (v128.const i32x4 -1 -1 -1 -1) (local.get $upper))
              (i32x4.trunc_sat_f32x4_s
                (f32x4.add
                  (f32x4.mul (local.get $a) (v128.const i32x4 0x3fb8aa3b 0x3fb8aa3b 0x3fb8aa3b 0x3fb8aa3b))
                  (v128.bitselect (v128.const f32x4 0.5 0.5 0.5 0.5) (v128.const f32x4 -0.5 -0.5 -0.5 -0.5) (local.get $upper))))
              (i32x4.lt_s (local.get $ha) (v128.const i32x4 0x3f851592 0x3f851592 0x3f851592 0x3f851592)))
            (v128.const i32x4 0 0 0 0)
            (i32x4.gt_s (local.get $ha) (v128.const i32x4 0x3eb17218 0x3eb17218 0x3eb17218 0x3eb17218))))
        (local.set $t (f32x4.convert_i32x4_s (local.get $k)))
        ;; hi = a − t·ln2_hi, lo = t·ln2_lo, r = hi − lo, c = (hi − r) − lo
        (local.set $hi (f32x4.sub (local.get $a) (f32x4.mul (local.get $t) (v128.const i32x4 0x3f317180 0x3f317180 0x3f317180 0x3f317180))))
        (local.set $lo (f32x4.mul (local.get $t) (v128.const i32x4 0x3717f7d1 0x3717f7d1 0x3717f7d1 0x3717f7d1)))
        (local.set $r (f32x4.sub (local.get $hi) (local.get $lo)))
        (local.set $c (f32x4.sub (f32x4.sub (local.get $hi) (local.get $r)) (local.get $lo)))
        ;; hfx = r/2, hxs = r·hfx, r1 = 1 + hxs·(Q1 + hxs·Q2), t = 3 − r1·hfx, e = hxs·((r1 − t)/(6 − r·t))
        (local.set $hfx (f32x4.mul (local.get $r) (v128.const f32x4 0.5 0.5 0.5 0.5)))
        (local.set $hxs (f32x4.mul (local.get $r) (local.get $hfx)))
        (local.set $r1
          (f32x4.add (v128.const f32x4 1 1 1 1)
            (f32x4.mul (local.get $hxs)
              (f32x4.add (v128.const i32x4 0xbd088868 0xbd088868 0xbd088868 0xbd088868)
                (f32x4.mul (local.get $hxs) (v128.const i32x4 0x3acf3010 0x3acf3010 0x3acf3010 0x3acf3010))))))
        (local.set $t (f32x4.sub (v128.const f32x4 3 3 3 3) (f32x4.mul (local.get $r1) (local.get $hfx))))
        (local.set $e
          (f32x4.mul (local.get $hxs)
            (f32x4.div (f32x4.sub (local.get $r1) (local.get $t))
              (f32x4.sub (v128.const f32x4 6 6 6 6) (f32x4.mul (local.get $r) (local.get $t))))))
        ;; k = 0: r − (r·e − hxs); |a| < 2^-25 (0x33000000): a itself
        (local.set $em
          (v128.bitselect
            (local.get $a)
            (f32x4.sub (local.get $r) (f32x4.sub (f32x4.mul (local.get $r) (local.get $e)) (local.get $hxs)))
            (i32x4.lt_s (local.get $ha) (v128.const i32x4 0x33000000 0x33000000 0x33000000 0x33000000))))
        ;; k ≠ 0: e = (r·(e − c) − c) − hxs
        (local.set $e (f32x4.sub (f32x4.sub (f32x4.mul (local.get $r) (f32x4.sub (local.get $e) (local.get $c))) (local.get $c)) (local.get $hxs)))
        ;; k = −1: 0.5·(r − e) − 0.5
        (local.set $em
          (v128.bitselect
            (f32x4.sub (f32x4.mul (v128.const f32x4 0.5 0.5 0.5 0.5) (f32x4.sub (local.get $r) (local.get $e))) (v128.const f32x4 0.5 0.5 0.5 0.5))
            (local.get $em)
            (i32x4.eq (local.get $k) (v128.const i32x4 -1 -1 -1 -1))))
        ;; k = 1: r < −0.25 ? −2·(e − (r + 0.5)) : 1 + 2·(r − e)
        (local.set $em
          (v128.bitselect
            (v128.bitselect
              (f32x4.mul (v128.const f32x4 -2 -2 -2 -2) (f32x4.sub (local.get $e) (f32x4.add (local.get $r) (v128.const f32x4 0.5 0.5 0.5 0.5))))
              (f32x4.add (v128.const f32x4 1 1 1 1) (f32x4.mul (v128.const f32x4 2 2 2 2) (f32x4.sub (local.get $r) (local.get $e))))
              (f32x4.lt (local.get $r) (v128.const f32x4 -0.25 -0.25 -0.25 -0.25)))
            (local.get $em)
            (i32x4.eq (local.get $k) (v128.const i32x4 1 1 1 1))))
        ;; k ≥ 2, with 2^k and 2^-k made from their exponent bits:
        ;;   k < 23: ((r − e) + (1 − 2^-k))·2^k, else ((r − (e + 2^-k)) + 1)·2^k
        (local.set $twopk (i32x4.shl (i32x4.add (local.get $k) (v128.const i32x4 0x7f 0x7f 0x7f 0x7f)) (i32.const 23)))
        (local.set $twomk (i32x4.shl (i32x4.sub (v128.const i32x4 0x7f 0x7f 0x7f 0x7f) (local.get $k)) (i32.const 23)))
        (local.set $em
          (v128.bitselect
            (v128.bitselect
              (f32x4.mul
                (f32x4.add (f32x4.sub (local.get $r) (local.get $e)) (f32x4.sub (v128.const f32x4 1 1 1 1) (local.get $twomk)))
                (local.get $twopk))
              (f32x4.mul
                (f32x4.add (f32x4.sub (local.get $r) (f32x4.add (local.get $e) (local.get $twomk))) (v128.const f32x4 1 1 1 1))
                (local.get $twopk))
              (i32x4.lt_s (local.get $k) (v128.const i32x4 23 23 23 23)))
            (local.get $em)
            (i32x4.gt_s (local.get $k) (v128.const i32x4 1 1 1 1))))

        ;; tanhf: q = 0/|x| | 2/(e + 2) | e/(e + 2) | −e/(e + 2)
        (local.set $q
          (f32x4.div
            (v128.bitselect
              (v128.bitselect
                (v128.bitselect (v128.const f32x4 0 0 0 0) (v128.const f32x4 2 2 2 2) (local.get $big))
                (local.get $em)
                (local.get $inA))
              (f32x4.neg (local.get $em))
              (local.get $upper))
            (v128.bitselect (local.get $w) (f32x4.add (local.get $em) (v128.const f32x4 2 2 2 2)) (local.get $big))))
        (local.set $x
          (v128.or
            (v128.bitselect
              (v128.bitselect
                (v128.bitselect
                  (f32x4.add (v128.const f32x4 1 1 1 1) (local.get $q))
                  (f32x4.sub (v128.const f32x4 1 1 1 1) (local.get $q))
                  (local.get $big))
                (local.get $q)
                (local.get $inA))
              (v128.bitselect
                (local.get $q)
                (local.get $w)
                (i32x4.gt_s (local.get $w) (v128.const i32x4 0x007fffff 0x007fffff 0x007fffff 0x007fffff)))
              (local.get $upper))
            (v128.and (local.get $x) (v128.const i32x4 0x80000000 0x80000000 0x80000000 0x80000000))))

        (if (i32.ge_s (local.get $left) (i32.const 16))
          (then (v128.store (local.get $p) (local.get $x)))
          (else
            (v128.store32_lane 0 (local.get $p) (local.get $x))
            (if (i32.gt_s (local.get $left) (i32.const 4))
              (then (v128.store32_lane offset=4 1 (local.get $p) (local.get $x))))
            (if (i32.gt_s (local.get $left) (i32.const 8))
              (then (v128.store32_lane offset=8 2 (local.get $p) (local.get $x))))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $vectors))))

  ;; One dense layer (see the header). Per row, 16 outputs at a time in four independent
  ;; accumulators (each still summed in k order), then 4 at a time.
  (func (export "dense")
    (param $x i32) (param $xStride i32) (param $w i32) (param $b i32) (param $y i32)
    (param $rows i32) (param $in i32) (param $outP i32) (param $relu i32)
    (local $rowBytes i32) (local $r i32) (local $xr i32) (local $xEnd i32) (local $xp i32) (local $wp i32)
    (local $yr i32) (local $jb i32) (local $xk v128) (local $floor v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $rowBytes (i32.shl (local.get $outP) (i32.const 2)))
    ;; relu as y < floor ? 0 : y with floor 0, or −Inf (never true) without it
    (local.set $floor (select (v128.const f32x4 0 0 0 0) (v128.const f32x4 -inf -inf -inf -inf) (local.get $relu)))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $xr (i32.add (local.get $x) (i32.shl (i32.mul (local.get $r) (local.get $xStride)) (i32.const 2))))
        (local.set $xEnd (i32.add (local.get $xr) (i32.shl (local.get $in) (i32.const 2))))
        (local.set $yr (i32.add (local.get $y) (i32.mul (local.get $r) (local.get $rowBytes))))
        (local.set $jb (i32.const 0))
        (block $sixteensDone
          (loop $sixteen
            (br_if $sixteensDone (i32.gt_u (i32.add (local.get $jb) (i32.const 64)) (local.get $rowBytes)))
            (local.set $a0 (v128.const i32x4 0 0 0 0))
            (local.set $a1 (v128.const i32x4 0 0 0 0))
            (local.set $a2 (v128.const i32x4 0 0 0 0))
            (local.set $a3 (v128.const i32x4 0 0 0 0))
            (local.set $xp (local.get $xr))
            (local.set $wp (i32.add (local.get $w) (local.get $jb)))
            (block $kDone
              (loop $k
                (br_if $kDone (i32.ge_u (local.get $xp) (local.get $xEnd)))
                (local.set $xk (v128.load32_splat (local.get $xp)))
                (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $xk) (v128.load offset=0 (local.get $wp)))))
                (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (local.get $xk) (v128.load offset=16 (local.get $wp)))))
                (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (local.get $xk) (v128.load offset=32 (local.get $wp)))))
                (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (local.get $xk) (v128.load offset=48 (local.get $wp)))))
                (local.set $xp (i32.add (local.get $xp) (i32.const 4)))
                (local.set $wp (i32.add (local.get $wp) (local.get $rowBytes)))
                (br $k)))
            (local.set $wp (i32.add (local.get $b) (local.get $jb)))
            (local.set $xp (i32.add (local.get $yr) (local.get $jb)))
            (local.set $a0 (f32x4.add (local.get $a0) (v128.load offset=0 (local.get $wp))))
            (local.set $a1 (f32x4.add (local.get $a1) (v128.load offset=16 (local.get $wp))))
            (local.set $a2 (f32x4.add (local.get $a2) (v128.load offset=32 (local.get $wp))))
            (local.set $a3 (f32x4.add (local.get $a3) (v128.load offset=48 (local.get $wp))))
            (v128.store offset=0 (local.get $xp) (v128.andnot (local.get $a0) (f32x4.lt (local.get $a0) (local.get $floor))))
            (v128.store offset=16 (local.get $xp) (v128.andnot (local.get $a1) (f32x4.lt (local.get $a1) (local.get $floor))))
            (v128.store offset=32 (local.get $xp) (v128.andnot (local.get $a2) (f32x4.lt (local.get $a2) (local.get $floor))))
            (v128.store offset=48 (local.get $xp) (v128.andnot (local.get $a3) (f32x4.lt (local.get $a3) (local.get $floor))))
            (local.set $jb (i32.add (local.get $jb) (i32.const 64)))
            (br $sixteen)))
        (block $foursDone
          (loop $four
            (br_if $foursDone (i32.ge_u (local.get $jb) (local.get $rowBytes)))
            (local.set $a0 (v128.const i32x4 0 0 0 0))
            (local.set $xp (local.get $xr))
            (local.set $wp (i32.add (local.get $w) (local.get $jb)))
            (block $kDone4
              (loop $k4
                (br_if $kDone4 (i32.ge_u (local.get $xp) (local.get $xEnd)))
                (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (v128.load32_splat (local.get $xp)) (v128.load (local.get $wp)))))
                (local.set $xp (i32.add (local.get $xp) (i32.const 4)))
                (local.set $wp (i32.add (local.get $wp) (local.get $rowBytes)))
                (br $k4)))
            (local.set $a0 (f32x4.add (local.get $a0) (v128.load (i32.add (local.get $b) (local.get $jb)))))
            (v128.store (i32.add (local.get $yr) (local.get $jb)) (v128.andnot (local.get $a0) (f32x4.lt (local.get $a0) (local.get $floor))))
            (local.set $jb (i32.add (local.get $jb) (i32.const 16)))
            (br $four)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row))))

  ;; C = A·B in tfjs-wasm's plain-loop order (see the header). Per row of C, 16 columns at a time in
  ;; four independent accumulators, then 4 at a time; per 48-row block of B a fresh sum from +0,
  ;; added to C (which starts at +0) when the block ends.
  (func (export "gemm")
    (param $a i32) (param $aRow i32) (param $aK i32) (param $b i32) (param $c i32)
    (param $m i32) (param $k i32) (param $nP i32)
    (local $rowBytes i32) (local $r i32) (local $ar i32) (local $cr i32) (local $jb i32)
    (local $k0 i32) (local $kEnd i32) (local $ap i32) (local $apEnd i32) (local $bp i32) (local $xk v128)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local.set $rowBytes (i32.shl (local.get $nP) (i32.const 2)))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $r) (local.get $m)))
        (local.set $ar (i32.add (local.get $a) (i32.mul (local.get $r) (local.get $aRow))))
        (local.set $cr (i32.add (local.get $c) (i32.mul (local.get $r) (local.get $rowBytes))))
        (local.set $jb (i32.const 0))
        (block $sixteensDone
          (loop $sixteen
            (br_if $sixteensDone (i32.gt_u (i32.add (local.get $jb) (i32.const 64)) (local.get $rowBytes)))
            (local.set $c0 (v128.const i32x4 0 0 0 0))
            (local.set $c1 (v128.const i32x4 0 0 0 0))
            (local.set $c2 (v128.const i32x4 0 0 0 0))
            (local.set $c3 (v128.const i32x4 0 0 0 0))
            (local.set $k0 (i32.const 0))
            (block $blocksDone
              (loop $block
                (br_if $blocksDone (i32.ge_u (local.get $k0) (local.get $k)))
                (local.set $kEnd (select (i32.add (local.get $k0) (i32.const 48)) (local.get $k)
                  (i32.lt_u (i32.add (local.get $k0) (i32.const 48)) (local.get $k))))
                (local.set $s0 (v128.const i32x4 0 0 0 0))
                (local.set $s1 (v128.const i32x4 0 0 0 0))
                (local.set $s2 (v128.const i32x4 0 0 0 0))
                (local.set $s3 (v128.const i32x4 0 0 0 0))
                (local.set $ap (i32.add (local.get $ar) (i32.mul (local.get $k0) (local.get $aK))))
                (local.set $apEnd (i32.add (local.get $ar) (i32.mul (local.get $kEnd) (local.get $aK))))
                (local.set $bp (i32.add (i32.add (local.get $b) (i32.mul (local.get $k0) (local.get $rowBytes))) (local.get $jb)))
                (block $kDone
                  (loop $kk
                    (br_if $kDone (i32.eq (local.get $ap) (local.get $apEnd)))
                    (local.set $xk (v128.load32_splat (local.get $ap)))
                    (local.set $s0 (f32x4.add (local.get $s0) (f32x4.mul (local.get $xk) (v128.load offset=0 (local.get $bp)))))
                    (local.set $s1 (f32x4.add (local.get $s1) (f32x4.mul (local.get $xk) (v128.load offset=16 (local.get $bp)))))
                    (local.set $s2 (f32x4.add (local.get $s2) (f32x4.mul (local.get $xk) (v128.load offset=32 (local.get $bp)))))
                    (local.set $s3 (f32x4.add (local.get $s3) (f32x4.mul (local.get $xk) (v128.load offset=48 (local.get $bp)))))
                    (local.set $ap (i32.add (local.get $ap) (local.get $aK)))
                    (local.set $bp (i32.add (local.get $bp) (local.get $rowBytes)))
                    (br $kk)))
                (local.set $c0 (f32x4.add (local.get $c0) (local.get $s0)))
                (local.set $c1 (f32x4.add (local.get $c1) (local.get $s1)))
                (local.set $c2 (f32x4.add (local.get $c2) (local.get $s2)))
                (local.set $c3 (f32x4.add (local.get $c3) (local.get $s3)))
                (local.set $k0 (local.get $kEnd))
                (br $block)))
            (v128.store offset=0 (i32.add (local.get $cr) (local.get $jb)) (local.get $c0))
            (v128.store offset=16 (i32.add (local.get $cr) (local.get $jb)) (local.get $c1))
            (v128.store offset=32 (i32.add (local.get $cr) (local.get $jb)) (local.get $c2))
            (v128.store offset=48 (i32.add (local.get $cr) (local.get $jb)) (local.get $c3))
            (local.set $jb (i32.add (local.get $jb) (i32.const 64)))
            (br $sixteen)))
        (block $foursDone
          (loop $four
            (br_if $foursDone (i32.ge_u (local.get $jb) (local.get $rowBytes)))
            (local.set $c0 (v128.const i32x4 0 0 0 0))
            (local.set $k0 (i32.const 0))
            (block $blocksDone4
              (loop $block4
                (br_if $blocksDone4 (i32.ge_u (local.get $k0) (local.get $k)))
                (local.set $kEnd (select (i32.add (local.get $k0) (i32.const 48)) (local.get $k)
                  (i32.lt_u (i32.add (local.get $k0) (i32.const 48)) (local.get $k))))
                (local.set $s0 (v128.const i32x4 0 0 0 0))
                (local.set $ap (i32.add (local.get $ar) (i32.mul (local.get $k0) (local.get $aK))))
                (local.set $apEnd (i32.add (local.get $ar) (i32.mul (local.get $kEnd) (local.get $aK))))
                (local.set $bp (i32.add (i32.add (local.get $b) (i32.mul (local.get $k0) (local.get $rowBytes))) (local.get $jb)))
                (block $kDone4
                  (loop $kk4
                    (br_if $kDone4 (i32.eq (local.get $ap) (local.get $apEnd)))
                    (local.set $s0 (f32x4.add (local.get $s0) (f32x4.mul (v128.load32_splat (local.get $ap)) (v128.load (local.get $bp)))))
                    (local.set $ap (i32.add (local.get $ap) (local.get $aK)))
                    (local.set $bp (i32.add (local.get $bp) (local.get $rowBytes)))
                    (br $kk4)))
                (local.set $c0 (f32x4.add (local.get $c0) (local.get $s0)))
                (local.set $k0 (local.get $kEnd))
                (br $block4)))
            (v128.store (i32.add (local.get $cr) (local.get $jb)) (local.get $c0))
            (local.set $jb (i32.add (local.get $jb) (i32.const 16)))
            (br $four)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row))))

  ;; Column sums (see the header): 16 columns at a time in four accumulators, then 4 at a time.
  (func (export "colsum") (param $x i32) (param $rows i32) (param $colsP i32) (param $y i32)
    (local $rowBytes i32) (local $jb i32) (local $p i32) (local $end i32)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)
    (local.set $rowBytes (i32.shl (local.get $colsP) (i32.const 2)))
    (local.set $end (i32.add (local.get $x) (i32.mul (local.get $rows) (local.get $rowBytes))))
    (block $sixteensDone
      (loop $sixteen
        (br_if $sixteensDone (i32.gt_u (i32.add (local.get $jb) (i32.const 64)) (local.get $rowBytes)))
        (local.set $s0 (v128.const i32x4 0 0 0 0))
        (local.set $s1 (v128.const i32x4 0 0 0 0))
        (local.set $s2 (v128.const i32x4 0 0 0 0))
        (local.set $s3 (v128.const i32x4 0 0 0 0))
        (local.set $p (i32.add (local.get $x) (local.get $jb)))
        (block $rowsDone
          (loop $row
            (br_if $rowsDone (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $s0 (f32x4.add (local.get $s0) (v128.load offset=0 (local.get $p))))
            (local.set $s1 (f32x4.add (local.get $s1) (v128.load offset=16 (local.get $p))))
            (local.set $s2 (f32x4.add (local.get $s2) (v128.load offset=32 (local.get $p))))
            (local.set $s3 (f32x4.add (local.get $s3) (v128.load offset=48 (local.get $p))))
            (local.set $p (i32.add (local.get $p) (local.get $rowBytes)))
            (br $row)))
        (v128.store offset=0 (i32.add (local.get $y) (local.get $jb)) (local.get $s0))
        (v128.store offset=16 (i32.add (local.get $y) (local.get $jb)) (local.get $s1))
        (v128.store offset=32 (i32.add (local.get $y) (local.get $jb)) (local.get $s2))
        (v128.store offset=48 (i32.add (local.get $y) (local.get $jb)) (local.get $s3))
        (local.set $jb (i32.add (local.get $jb) (i32.const 64)))
        (br $sixteen)))
    (block $foursDone
      (loop $four
        (br_if $foursDone (i32.ge_u (local.get $jb) (local.get $rowBytes)))
        (local.set $s0 (v128.const i32x4 0 0 0 0))
        (local.set $p (i32.add (local.get $x) (local.get $jb)))
        (block $rowsDone4
          (loop $row4
            (br_if $rowsDone4 (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $s0 (f32x4.add (local.get $s0) (v128.load (local.get $p))))
            (local.set $p (i32.add (local.get $p) (local.get $rowBytes)))
            (br $row4)))
        (v128.store (i32.add (local.get $y) (local.get $jb)) (local.get $s0))
        (local.set $jb (i32.add (local.get $jb) (i32.const 16)))
        (br $four))))

  ;; One Adam step, four values at a time (see the header); $useScale = 0 skips g·scale.
  (func (export "adam")
    (param $g i32) (param $m i32) (param $v i32) (param $th i32) (param $nP i32) (param $useScale i32)
    (param $scale f32) (param $b1 f32) (param $c1 f32) (param $b2 f32) (param $c2 f32)
    (param $om1 f32) (param $om2 f32) (param $eps f32) (param $negLr f32)
    (local $o i32) (local $end i32) (local $gj v128) (local $mj v128) (local $vj v128)
    (local.set $end (i32.shl (local.get $nP) (i32.const 2)))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $o) (local.get $end)))
        (local.set $gj (v128.load (i32.add (local.get $g) (local.get $o))))
        (if (local.get $useScale)
          (then (local.set $gj (f32x4.mul (local.get $gj) (f32x4.splat (local.get $scale))))))
        (local.set $mj
          (f32x4.add
            (f32x4.mul (v128.load (i32.add (local.get $m) (local.get $o))) (f32x4.splat (local.get $b1)))
            (f32x4.mul (local.get $gj) (f32x4.splat (local.get $c1)))))
        (local.set $vj
          (f32x4.add
            (f32x4.mul (v128.load (i32.add (local.get $v) (local.get $o))) (f32x4.splat (local.get $b2)))
            (f32x4.mul (f32x4.mul (local.get $gj) (local.get $gj)) (f32x4.splat (local.get $c2)))))
        (v128.store (i32.add (local.get $m) (local.get $o)) (local.get $mj))
        (v128.store (i32.add (local.get $v) (local.get $o)) (local.get $vj))
        (v128.store (i32.add (local.get $th) (local.get $o))
          (f32x4.add
            (f32x4.mul
              (f32x4.div
                (f32x4.div (local.get $mj) (f32x4.splat (local.get $om1)))
                (f32x4.add (f32x4.sqrt (f32x4.div (local.get $vj) (f32x4.splat (local.get $om2)))) (f32x4.splat (local.get $eps))))
              (f32x4.splat (local.get $negLr)))
            (v128.load (i32.add (local.get $th) (local.get $o)))))
        (local.set $o (i32.add (local.get $o) (i32.const 16)))
        (br $each))))
)
