import type { ReactNode } from 'react';

/**
 * The table config of spec section 3, the one declarative description of a list page's
 * table: its columns (label, prop, slot, show, sortable, width, align, showThousands) and
 * its row operations (label, handler, optional authCode, isShow). ListTable renders it;
 * this module holds the rules, pure so they are tested without a browser.
 */
export interface TableColumn<T> {
  /** The row's field shown (the column's key: in the user's column choice and in the URL's `sort`). */
  prop: string;
  label: string;
  /** The cell's own rendering (the spec's slot); without it the value, '-' when empty. */
  slot?: (value: never, row: T) => ReactNode;
  /** Shown until the user chooses otherwise (default true); false: offered in the column settings only. */
  show?: boolean;
  /** The list sorts by it on the server (the endpoint's `sortFields`); the sort lives in the URL. */
  sortable?: boolean;
  /** Width in px; a column without one takes the room left (counted as DEFAULT_COLUMN_WIDTH). */
  width?: number;
  align?: 'left' | 'center' | 'right';
  /** A number shown with the locale's thousands separators (right-aligned unless `align` says otherwise). */
  showThousands?: boolean;
  /** Cut long text with an ellipsis (the full text in a tooltip). */
  ellipsis?: boolean;
}

export interface TableOperation<T> {
  /** Stable key of the operation among the row's buttons. */
  key: string;
  label: string;
  /** What the button does; with `confirm`, runs after the confirmation (a promise keeps it spinning). */
  handler: (row: T) => unknown;
  /** Permission code: without it the operation is not offered at all (hasPermission rules). */
  authCode?: string;
  /** Whether the operation applies to this row (e.g. 'pause' only for an enabled one). */
  isShow?: (row: T) => boolean;
  /** Shown but not usable for this row; a string is the reason, shown as the button's tooltip. */
  disabled?: (row: T) => boolean | string;
  /** Ask first (a popconfirm whose OK reads like the operation). */
  confirm?: (row: T) => { title: ReactNode; description?: ReactNode };
  danger?: boolean;
  icon?: ReactNode;
  /** Hidden for third-party monitor accounts (spec section 6), like <NotForMonitor>. */
  notForMonitor?: boolean;
  testId?: (row: T) => string;
}

export interface TableConfig<T> {
  /** The table's id, unique in the console: the key of each user's column choice. */
  id: string;
  columns: readonly TableColumn<T>[];
  operations?: readonly TableOperation<T>[];
  /** The operations column's title (default: the shared 'Actions'). */
  operationsLabel?: string;
}

/** Width counted for a column that has none (it stretches to fill what is left). */
export const DEFAULT_COLUMN_WIDTH = 160;
/** Width of the row-selection column. */
export const SELECTION_COLUMN_WIDTH = 48;

// ---------------------------------------------------------------- column visibility

/** The user's changes to a table's default columns: prop -> shown. Reset removes them all. */
export type ColumnOverrides = Readonly<Record<string, boolean>>;

const STORAGE_PREFIX = 'mq_table_columns';

/** localStorage key of one account's choice for one table. */
export function columnStorageKey(accountId: string, tableId: string): string {
  return `${STORAGE_PREFIX}:${accountId || 'anonymous'}:${tableId}`;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The saved choice, or none; anything unreadable counts as none. */
export function loadColumnOverrides(accountId: string, tableId: string): ColumnOverrides {
  const raw = storage()?.getItem(columnStorageKey(accountId, tableId));
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed as Record<string, unknown>).filter(([, v]) => typeof v === 'boolean'),
    ) as ColumnOverrides;
  } catch {
    return {};
  }
}

/** Saves the choice; an empty one (the defaults) removes the key. */
export function saveColumnOverrides(accountId: string, tableId: string, overrides: ColumnOverrides): void {
  const store = storage();
  if (!store) return;
  const key = columnStorageKey(accountId, tableId);
  try {
    if (Object.keys(overrides).length === 0) store.removeItem(key);
    else store.setItem(key, JSON.stringify(overrides));
  } catch {
    // A full or refused storage keeps the choice for this page only.
  }
}

/** Whether a column shows: the user's choice, else its `show`; the first column always shows. */
export function isColumnShown<T>(
  columns: readonly TableColumn<T>[],
  prop: string,
  overrides: ColumnOverrides,
): boolean {
  const index = columns.findIndex((c) => c.prop === prop);
  if (index < 0) return false;
  if (index === 0) return true;
  return overrides[prop] ?? columns[index].show !== false;
}

/** The columns shown, in the config's order. */
export function shownColumns<T>(columns: readonly TableColumn<T>[], overrides: ColumnOverrides): TableColumn<T>[] {
  return columns.filter((c) => isColumnShown(columns, c.prop, overrides));
}

/**
 * The overrides after the user sets one column: a choice equal to the default is dropped,
 * so a later change of the default reaches users who never touched that column.
 */
export function withColumnShown<T>(
  columns: readonly TableColumn<T>[],
  overrides: ColumnOverrides,
  prop: string,
  shown: boolean,
): ColumnOverrides {
  const column = columns.find((c) => c.prop === prop);
  if (!column || columns[0] === column) return overrides;
  const { [prop]: _old, ...rest } = overrides;
  return shown === (column.show !== false) ? rest : { ...rest, [prop]: shown };
}

// ---------------------------------------------------------------- operations

/** The operations this user may ever see: those whose authCode they hold (and not monitor-only hidden). */
export function allowedOperations<T>(
  operations: readonly TableOperation<T>[] | undefined,
  can: (code?: string | null) => boolean,
  isMonitor: boolean,
): TableOperation<T>[] {
  return (operations ?? []).filter((op) => (!op.authCode || can(op.authCode)) && !(isMonitor && op.notForMonitor));
}

/** The operations of one row: the allowed ones whose isShow accepts it. */
export function rowOperations<T>(allowed: readonly TableOperation<T>[], row: T): TableOperation<T>[] {
  return allowed.filter((op) => !op.isShow || op.isShow(row));
}

// ---------------------------------------------------------------- numbers

const formats = new Map<string, Intl.NumberFormat>();

/** A number with the locale's grouping (1,234,567 / 1,234,567 / 1,234,567; de-DE would give 1.234.567). */
export function formatThousands(value: unknown, locale: string): string {
  if (value === null || value === undefined || value === '') return '-';
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return String(value);
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 20 });
    formats.set(locale, format);
  }
  return format.format(n);
}

// ---------------------------------------------------------------- widths

/** Measures text in the table's font: canvas in a browser, an estimate elsewhere (jsdom). */
export type TextMeasure = (text: string) => number;

/** Width of a text at `fontSize` px without a canvas: CJK and full-width glyphs are square, Latin narrower. */
export function estimateTextWidth(text: string, fontSize = 14): number {
  let width = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0x2e80) width += fontSize;
    else if (/[A-Z0-9mwMW@%]/.test(ch)) width += fontSize * 0.72;
    else if (/[iljtfr.,:;'!| ]/.test(ch)) width += fontSize * 0.34;
    else width += fontSize * 0.56;
  }
  return Math.ceil(width);
}

let canvasContext: CanvasRenderingContext2D | null | undefined;

/** A canvas measure in `font` (CSS shorthand), or the estimate when there is no canvas. */
export function textMeasure(font: string, fontSize: number): TextMeasure {
  if (canvasContext === undefined) {
    const isBrowser =
      typeof document !== 'undefined' && typeof navigator !== 'undefined' && !/jsdom/i.test(navigator.userAgent);
    canvasContext = isBrowser ? document.createElement('canvas').getContext('2d') : null;
  }
  const ctx = canvasContext;
  if (!ctx) return (text) => estimateTextWidth(text, fontSize);
  return (text) => {
    ctx.font = font;
    return Math.ceil(ctx.measureText(text).width);
  };
}

/** A small link button's frame around its text (padding 7 px each side, 1 px border each side). */
const BUTTON_FRAME = 16;
/** An icon and its gap inside a button. */
const BUTTON_ICON = 22;
/** The cell's horizontal padding (middle size: 8 px each side) and a margin against rounding. */
const CELL_FRAME = 16 + 8;

/**
 * The operations column's width: the widest row's buttons (in the current language, as the
 * labels are measured), at least the title; so no button wraps or hides in any language.
 */
export function operationsWidth<T>(
  allowed: readonly TableOperation<T>[],
  rows: readonly T[],
  title: string,
  measure: TextMeasure,
): number {
  const buttons = (ops: readonly TableOperation<T>[]) =>
    ops.reduce((sum, op) => sum + measure(op.label) + BUTTON_FRAME + (op.icon ? BUTTON_ICON : 0), 0);
  // Without rows yet: the widest set any row could show, the operations without isShow plus
  // the widest isShow one (the isShow ones of a table are alternatives, like pause/enable).
  let widest = 0;
  if (rows.length === 0) {
    const always = allowed.filter((op) => !op.isShow);
    const alternatives = allowed.filter((op) => op.isShow).map((op) => buttons([op]));
    widest = buttons(always) + Math.max(0, ...alternatives);
  }
  for (const row of rows) widest = Math.max(widest, buttons(rowOperations(allowed, row)));
  return Math.ceil(Math.max(widest, measure(title)) + CELL_FRAME);
}

/** A sorter's arrows beside a header's text. */
const SORTER_WIDTH = 24;

/**
 * A column's width in the current language: its configured width, widened so the header
 * (and a sorter's arrows) fits on one line; none stays none (the column fills what is left).
 */
export function columnWidth<T>(column: TableColumn<T>, measure: TextMeasure): number | undefined {
  if (column.width === undefined) return undefined;
  // Headers are semibold: 8% over the regular text measured.
  const header = measure(column.label) * 1.08 + CELL_FRAME + (column.sortable ? SORTER_WIDTH : 0);
  return Math.max(column.width, Math.ceil(header));
}

/**
 * The table's scroll width: the shown columns' widths (DEFAULT_COLUMN_WIDTH for one without),
 * the selection column and the operations column. The table is at least this wide and
 * scrolls horizontally in a narrower container, its first and operations columns fixed,
 * so a fixed column never covers another.
 */
export function tableScrollX<T>(shown: readonly TableColumn<T>[], extra: { selection?: boolean; operations?: number }) {
  return (
    shown.reduce((sum, c) => sum + (c.width ?? DEFAULT_COLUMN_WIDTH), 0) +
    (extra.selection ? SELECTION_COLUMN_WIDTH : 0) +
    (extra.operations ?? 0)
  );
}
