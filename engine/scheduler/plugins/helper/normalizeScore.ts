// helper.DefaultNormalizeScore (pkg/scheduler/framework/plugins/helper/normalize_score.go).
import type { NodeScore } from '../../framework/interface';
import type { MaybeStatus } from '../../framework/status';

/**
 * Scales scores from [0, max(scores)] to [0, maxPriority] in place, with Go's
 * int64 division (truncating). With `reverse`, each becomes maxPriority - score.
 * All zero: unchanged, or all maxPriority when reversed. Scores are assumed
 * non-negative integers. Always succeeds (null), as upstream.
 */
export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: NodeScore[]): MaybeStatus {
  let maxCount = 0;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!.score;
    if (s > maxCount) maxCount = s;
  }
  if (maxCount === 0) {
    if (reverse) for (let i = 0; i < scores.length; i++) scores[i]!.score = maxPriority;
    return null;
  }
  for (let i = 0; i < scores.length; i++) {
    const ns = scores[i]!;
    let score = Math.trunc((maxPriority * ns.score) / maxCount);
    if (reverse) score = maxPriority - score;
    ns.score = score;
  }
  return null;
}

/** defaultNormalizeScore over bare scores (ScoreExtensions.normalizeScoreValues): the same arithmetic. */
export function defaultNormalizeScoreValues(maxPriority: number, reverse: boolean, scores: Float64Array): MaybeStatus {
  let maxCount = 0;
  for (let i = 0; i < scores.length; i++) if (scores[i]! > maxCount) maxCount = scores[i]!;
  if (maxCount === 0) {
    if (reverse) scores.fill(maxPriority);
    return null;
  }
  for (let i = 0; i < scores.length; i++) {
    const score = Math.trunc((maxPriority * scores[i]!) / maxCount);
    scores[i] = reverse ? maxPriority - score : score;
  }
  return null;
}
