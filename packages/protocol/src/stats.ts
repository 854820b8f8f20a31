import { Perm } from './permissions.js';

/**
 * The figures of the home page's quick statistics (spec section 7 'quick statistics'), in the
 * order the home page shows them. Each is contributed by the server module that owns its
 * facts (a stat provider registered in apps/server/src/modules/home/stats.ts) and computed in
 * the caller's enterprise and data scope; the caller gets a figure only while holding its
 * `permission`. `route` is the page the figure's card links to (shown as a link only when the
 * user may open it). Modules coming online add theirs here: ads serving and pending review,
 * storage used.
 */
export interface StatFigureDef {
  /** `count`: one number; `trend`: one number per day over the last TREND_DAYS days. */
  kind: 'count' | 'trend';
  permission: string;
  route: string;
}

export const STAT_FIGURES = {
  accounts: { kind: 'count', permission: Perm.userCompany, route: '/user/company' },
  departments: { kind: 'count', permission: Perm.userCompany, route: '/user/company' },
  templates: { kind: 'count', permission: Perm.template, route: '/template' },
  sharedWithMe: { kind: 'count', permission: Perm.template, route: '/template' },
  devicesOnline: { kind: 'count', permission: Perm.device, route: '/device' },
  devicesOffline: { kind: 'count', permission: Perm.device, route: '/device' },
  operations: { kind: 'trend', permission: Perm.reportOperationLog, route: '/report/operationLog' },
  /** Plays on the screens the caller sees, per UTC day (the play rollups' days). */
  plays: { kind: 'trend', permission: Perm.reportDevice, route: '/report/device' },
  /** The enterprise's open warnings (issue 30; counted per kind on the warning page). */
  warningsOpen: { kind: 'count', permission: Perm.operateWarning, route: '/operate/warning' },
  /** The enterprise's ad slots (issue 28), and its goods on the shelf (listed for sale). */
  slots: { kind: 'count', permission: Perm.operateSlot, route: '/operate/slot' },
  goodsListed: { kind: 'count', permission: Perm.operateGoods, route: '/operate/goods' },
  /** The platform's published help documents (issue 31; platform-wide: the same for every reader). */
  helpDocs: { kind: 'count', permission: Perm.helpFile, route: '/help/helpFile' },
} as const satisfies Record<string, StatFigureDef>;

export type StatKey = keyof typeof STAT_FIGURES;
export const STAT_KEYS = Object.keys(STAT_FIGURES) as StatKey[];

/** Days of a trend figure, today included. */
export const TREND_DAYS = 14;
