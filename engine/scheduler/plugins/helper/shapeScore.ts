// helper.BuildBrokenLinearFunction (pkg/scheduler/framework/plugins/helper/shape_score.go):
// a piecewise-linear function through the shape's points, flat before the
// first point and after the last, with Go's int64 arithmetic (the division
// truncates toward zero, which matters on falling segments).

/** helper.FunctionShapePoint */
export interface FunctionShapePoint {
  utilization: number;
  score: number;
}

export type FunctionShape = readonly FunctionShapePoint[];

/** The broken linear function of `shape` at `p`. Allocation-free: the scorers call it per node. */
export function brokenLinear(shape: FunctionShape, p: number): number {
  for (let i = 0; i < shape.length; i++) {
    const cur = shape[i]!;
    if (p <= cur.utilization) {
      if (i === 0) return shape[0]!.score;
      const prev = shape[i - 1]!;
      return prev.score + Math.trunc(((cur.score - prev.score) * (p - prev.utilization)) / (cur.utilization - prev.utilization));
    }
  }
  return shape[shape.length - 1]!.score;
}

/** helper.BuildBrokenLinearFunction, for callers that want the function itself (never store it in engine state). */
export function buildBrokenLinearFunction(shape: FunctionShape): (p: number) => number {
  const copy = shape.map((s) => ({ utilization: s.utilization, score: s.score }));
  return (p) => brokenLinear(copy, p);
}
