/**
 * The one-sided Mann-Whitney U test (Wilcoxon rank-sum): are a run's samples of a measurement larger than
 * the baseline's? Written here rather than taken from npm because no small, well-kept package offers the
 * test with a p-value (simple-statistics gives only the rank sum; @stdlib's wilcoxon is the paired test),
 * and the normal approximation with tie correction is a few lines. It matches SciPy's
 * `mannwhitneyu(x, y, alternative='greater', method='asymptotic')` (continuity-corrected), which the tests
 * check against; the approximation is good from about five samples a side, the least a gate asks for.
 */

export interface RankTest {
  /** U of `x`: how many (x, y) pairs have x above y, ties counting half. */
  u: number;
  /** P(U at least this large) when x and y come from one distribution. */
  pValue: number;
}

export function mannWhitneyGreater(x: readonly number[], y: readonly number[]): RankTest {
  const n1 = x.length;
  const n2 = y.length;
  const n = n1 + n2;
  const all = [...x.map((v) => ({ v, own: true })), ...y.map((v) => ({ v, own: false }))].sort(
    (a, b) => a.v - b.v,
  );
  // Midranks for ties; each tie group of size t also shrinks the variance by t³ - t.
  let rankSumX = 0;
  let tieTerm = 0;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && all[j + 1]!.v === all[i]!.v) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (all[k]!.own) rankSumX += rank;
    const t = j - i + 1;
    tieTerm += t ** 3 - t;
    i = j + 1;
  }
  const u = rankSumX - (n1 * (n1 + 1)) / 2;
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  // Every value tied: the samples say nothing either way.
  if (!(variance > 0)) return { u, pValue: 1 };
  const z = (u - mean - 0.5) / Math.sqrt(variance);
  return { u, pValue: Math.min(1, 0.5 * erfc(z / Math.SQRT2)) };
}

/** Complementary error function (Numerical Recipes' Chebyshev fit, relative error below 1.2e-7). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + z / 2);
  const poly =
    -z * z -
    1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t *
                  (-0.18628806 +
                    t *
                      (0.27886807 +
                        t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const r = t * Math.exp(poly);
  return x >= 0 ? r : 2 - r;
}
