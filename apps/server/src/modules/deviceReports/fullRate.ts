/**
 * The full rate of spec section 9: the sum of the actual daily ad counts over the valid days,
 * divided by (valid days times the full count, default 8 ads a day), times 100, to 2 decimals;
 * 0 without a valid day. `dailyCounts` holds one count per valid day.
 *
 * Local until packages/protocol/src/adReport.ts (another branch) brings the same
 * `fullRate(dailyCounts, fullCount = 8)`: the integrator keeps that one.
 */
export function fullRate(dailyCounts: readonly number[], fullCount = 8): number {
  if (dailyCounts.length === 0 || fullCount <= 0) return 0;
  const sum = dailyCounts.reduce((a, b) => a + b, 0);
  return Math.round((sum / (dailyCounts.length * fullCount)) * 10_000) / 100;
}
