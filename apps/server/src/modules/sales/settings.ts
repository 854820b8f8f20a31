import { DEFAULT_HOLD_MINUTES, DEFAULT_IMPRESSIONS_PER_PLAY_PCT, type MakeGoodRemedy } from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { salesSettings } from '../../db/schema/index.js';
import type { CallContext } from '../../protocol/handlers.js';

/** An enterprise's sales settings as the rules use them. */
export interface SalesSettingsValues {
  holdMinutes: number;
  impressionsPerPlayPct: number;
  defaultRemedy: MakeGoodRemedy;
}

/** The defaults of salesRules.ts: what an enterprise without a settings row works with. */
export const DEFAULT_SALES_SETTINGS: SalesSettingsValues = {
  holdMinutes: DEFAULT_HOLD_MINUTES,
  impressionsPerPlayPct: DEFAULT_IMPRESSIONS_PER_PLAY_PCT,
  defaultRemedy: 'credit',
};

/** The enterprise's sales settings (its row, or the defaults). */
export async function salesSettingsOf(db: Executor, entId: string): Promise<SalesSettingsValues> {
  const [row] = await db.select().from(salesSettings).where(eq(salesSettings.entId, entId));
  if (!row) return { ...DEFAULT_SALES_SETTINGS };
  return {
    holdMinutes: row.holdMinutes,
    impressionsPerPlayPct: row.impressionsPerPlayPct,
    defaultRemedy: row.defaultRemedy,
  };
}

/** Writes the enterprise's sales settings (insert or update), returning what is stored. */
export async function saveSalesSettings(
  db: Executor,
  entId: string,
  values: SalesSettingsValues,
  now: Date,
): Promise<SalesSettingsValues> {
  await db
    .insert(salesSettings)
    .values({ entId, ...values, updatedAt: now })
    .onConflictDoUpdate({ target: salesSettings.entId, set: { ...values, updatedAt: now } });
  return { ...values };
}

/** Whether an e-signature provider is configured (config.esign.url, ESIGN_URL; read defensively). */
function esignConfigured(ctx: CallContext): boolean {
  const config = ctx.services.config as unknown as { esign?: { url?: unknown } };
  const url = config.esign?.url;
  return typeof url === 'string' && url.length > 0;
}

export async function settingsInfo(ctx: CallContext) {
  return { ...(await salesSettingsOf(ctx.db, ctx.user.entId)), esignConfigured: esignConfigured(ctx) };
}

export async function settingsSave(input: SalesSettingsValues, ctx: CallContext) {
  const before = await salesSettingsOf(ctx.db, ctx.user.entId);
  const saved = await saveSalesSettings(ctx.db, ctx.user.entId, input, ctx.now);
  await ctx.audit({
    module: 'sales',
    action: 'update',
    targetType: 'salesSettings',
    targetId: ctx.user.entId,
    targetName: ctx.user.entName,
    detail: { before, after: saved },
  });
  return { ...saved, esignConfigured: esignConfigured(ctx) };
}
