import type { EndpointName, Endpoints, Req, Res } from '@marquee/protocol';
import { Card, Checkbox, Col, DatePicker, Form, Input, InputNumber, Pagination, Row, Select, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { type CSSProperties, type ReactNode, useMemo, useRef } from 'react';
import { useCallQuery } from '../api/queries';
import { FilterBar } from './FilterBar';
import { type ListQuery, ListTable, type ListTableProps } from './ListTable';
import { listPagination, type PageRequest, useUrlListState } from './listState';
import './listPage.css';
import type { TableConfig } from './tableConfig';

/**
 * A list page as a declaration (the way Ant Design Pro's ProTable builds its search form from
 * its columns): the table config of spec section 3 plus the list endpoint and the filter
 * fields. `useListPage` turns it into the URL state (page, size, sort, filters), the query
 * (its key from the endpoint catalogue, the previous page kept while the next loads, Search
 * and Reset always fetching again) and the filter bar's values; `<ListPage>` draws the frame:
 * the filter card, the list card with its title and toolbar, and the page's dialogs.
 *
 *   const list = useListPage({ id: 'splice', endpoint: 'spliceList', filters: [...], columns: [...] });
 *   return <ListPage list={list} title={t('title')} toolbar={<AddButton/>}>{dialogs}</ListPage>;
 */

/** What every filter field declares: its URL key (also the request's field), label and test id. */
interface FieldBase<K extends string> {
  key: K;
  label: ReactNode;
  /** The control's data-testid (default `<table id>-filter-<key>`). */
  testId?: string;
  /** Not shown (and not sent) when true: a filter only some users have. */
  hidden?: boolean;
  /** The control's width in px. */
  width?: number;
  /** The value as the request takes it (default: the URL's string). */
  param?: (value: string) => unknown;
  /** The form item's rules (checked before Search). */
  rules?: Rule[];
}

export interface TextFilter<K extends string> extends FieldBase<K> {
  kind?: 'text';
  placeholder?: string;
  /** Default 50. */
  maxLength?: number;
}

export interface SelectFilter<K extends string> extends FieldBase<K> {
  kind: 'select';
  options: readonly { value: string; label: ReactNode }[];
  placeholder?: string;
  loading?: boolean;
  /** Type to narrow the options (by their label text). */
  showSearch?: boolean;
  /** What no choice means: shown while the URL has none and never written to it; no clear button. */
  defaultValue?: string;
}

/** Two URL keys (`from`, `to`: days YYYY-MM-DD, or instants with `time`) edited as one range picker. */
export interface RangeFilter<K extends string> extends Omit<FieldBase<K>, 'param'> {
  kind: 'range';
  from: K;
  to: K;
  /** Instants (ISO) picked with their time, instead of days. */
  time?: boolean;
  /** Days picked, kept as instants: the start of the first day and the end of the last. */
  wholeDays?: boolean;
}

/** Two URL keys (`from`, `to`) of numbers, edited side by side under one label. */
export interface NumberRangeFilter<K extends string> extends Omit<FieldBase<K>, 'param'> {
  kind: 'numberRange';
  from: K;
  to: K;
  /** The two inputs' placeholders (also their accessible names). */
  placeholders: [string, string];
  /** Default 0. */
  min?: number;
}

/** A checkbox (its label beside it): '1' in the URL when checked. */
export interface CheckFilter<K extends string> extends FieldBase<K> {
  kind: 'check';
}

/** Any other control (a tree of departments, a device picker...) bound to the URL key as a string. */
export interface CustomFilter<K extends string> extends FieldBase<K> {
  kind: 'custom';
  /** The control: it receives `value` and `onChange` from the form. */
  render: () => ReactNode;
}

export type FilterField<K extends string = string> =
  | TextFilter<K>
  | SelectFilter<K>
  | RangeFilter<K>
  | NumberRangeFilter<K>
  | CheckFilter<K>
  | CustomFilter<K>;

export interface ListPageConfig<T, N extends EndpointName, K extends string> extends TableConfig<T> {
  /** The list endpoint of the catalogue; its answer is a page `{ data, total }`. */
  endpoint: N;
  /** The filter fields, in the bar's order. */
  filters?: readonly FilterField<K>[];
  /** The request of a page (default: the page, size and sort with every filter set). */
  request?: (filters: Partial<Record<K, unknown>>, page: PageRequest<string>) => Req<Endpoints[N]>;
  /** Don't load (yet): e.g. until a required choice is made. */
  enabled?: boolean;
  /** The page size when the URL has none (default 50). */
  defaultSize?: number;
  /** Refetch every so many ms while shown (live lists); a function decides from the page shown. */
  refetchInterval?: number | ((page: Res<Endpoints[N]> | undefined) => number | false);
  /**
   * URL keys the page sets outside the filter bar (a folder chosen in a tree beside the list,
   * with `refine`): sent in the request like the filters, kept by Search and Reset.
   */
  scope?: readonly K[];
  /** Called on each Search, Reset and `refine` (a page drops its row selection). */
  onFilter?: () => void;
}

/** The URL keys of the filters (a range has two). */
function urlKeys<K extends string>(fields: readonly FilterField<K>[]): K[] {
  return fields.flatMap((f) => (f.kind === 'range' || f.kind === 'numberRange' ? [f.from, f.to] : [f.key]));
}

const toDay = (v: string | undefined): Dayjs | null => (v ? dayjs(v) : null);
const fromDay = (v: Dayjs | null | undefined, f: RangeFilter<string>, end: boolean): string | undefined => {
  if (!v) return undefined;
  if (f.wholeDays) return (end ? v.endOf('day') : v.startOf('day')).toISOString();
  return f.time ? v.toISOString() : v.format('YYYY-MM-DD');
};
const toNumber = (v: string | undefined) => (v && Number.isFinite(Number(v)) ? Number(v) : null);

type RowOf<R> = R extends { data: readonly (infer T)[] } ? T : never;

/**
 * The state of a declared list page: its URL state, query and filter bar. `config` may be
 * built on every render (it holds the page's texts and handlers); its filter keys are read
 * by value.
 */
export function useListPage<N extends EndpointName, K extends string = never, T = RowOf<Res<Endpoints[N]>>>(
  config: ListPageConfig<T, N, K>,
) {
  // The config is built on every render (texts, handlers, loaded options): what the URL state
  // and the request depend on is read by value, the keys and the sortable props.
  const fields = (config.filters ?? []).filter((f) => !f.hidden);
  const scope = config.scope ?? [];
  const keysText = [...urlKeys(fields), ...scope].join('\u0000');
  const sortText = config.columns.flatMap((c) => (c.sortable ? [c.prop] : [])).join('\u0000');
  const latest = useRef({ fields, scope, request: config.request });
  latest.current = { fields, scope, request: config.request };
  const keys = useMemo(() => (keysText ? (keysText.split('\u0000') as K[]) : []), [keysText]);
  const sortKeys = useMemo(() => (sortText ? sortText.split('\u0000') : []), [sortText]);
  const state = useUrlListState(keys, { defaultSize: config.defaultSize, sortKeys });
  const { filters, pageRequest } = state;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the fields are read by their keys (keysText)
  const params = useMemo(() => {
    const out: Partial<Record<K, unknown>> = {};
    for (const k of latest.current.scope) if (filters[k]) out[k] = filters[k];
    for (const f of latest.current.fields) {
      if (f.kind === 'range' || f.kind === 'numberRange') {
        if (filters[f.from]) out[f.from] = filters[f.from];
        if (filters[f.to]) out[f.to] = filters[f.to];
      } else {
        const v = filters[f.key];
        if (v) out[f.key] = f.param ? f.param(v) : v;
      }
    }
    return out;
  }, [keysText, filters]);
  const request = useMemo(() => {
    const map = latest.current.request;
    return (map ? map(params, pageRequest) : { ...pageRequest, ...params }) as Req<Endpoints[N]>;
  }, [params, pageRequest]);
  const every = config.refetchInterval;
  const query = useCallQuery(config.endpoint, request, {
    keepPrevious: true,
    round: state.round,
    enabled: config.enabled,
    refetchInterval: typeof every === 'function' ? (q) => every(q.state.data) : every,
  });

  // The bar's values (a range's two keys as one picker value); stable while the URL is, so
  // the bar does not lose what the user is typing when the page renders again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the fields are read by their keys (keysText)
  const values = useMemo(() => {
    const out: Record<string, unknown> = {};
    for (const f of latest.current.fields) {
      if (f.kind === 'range') {
        const a = filters[f.from];
        const b = filters[f.to];
        out[f.key] = a || b ? [toDay(a), toDay(b)] : null;
      } else if (f.kind === 'numberRange') {
        out[f.from] = toNumber(filters[f.from]);
        out[f.to] = toNumber(filters[f.to]);
      } else if (f.kind === 'check') out[f.key] = filters[f.key] === '1';
      else if (f.kind === 'select' && f.defaultValue !== undefined) out[f.key] = filters[f.key] ?? f.defaultValue;
      else out[f.key] = filters[f.key];
    }
    return out;
  }, [keysText, filters]);
  /** The scope's URL values (kept by Search and Reset). */
  const kept = () => {
    const out: Partial<Record<K, string | undefined>> = {};
    for (const k of scope) out[k] = filters[k];
    return out;
  };
  const search = (form: Record<string, unknown>) => {
    const next = kept();
    const text = (v: unknown) => (v === undefined || v === null ? undefined : String(v));
    for (const f of fields) {
      if (f.kind === 'range') {
        const range = form[f.key] as [Dayjs | null, Dayjs | null] | null | undefined;
        next[f.from] = fromDay(range?.[0], f, false);
        next[f.to] = fromDay(range?.[1], f, true);
      } else if (f.kind === 'numberRange') {
        next[f.from] = text(form[f.from]);
        next[f.to] = text(form[f.to]);
      } else if (f.kind === 'check') next[f.key] = form[f.key] ? '1' : undefined;
      else {
        const v = text(form[f.key]);
        next[f.key] = f.kind === 'select' && v === f.defaultValue ? undefined : v;
      }
    }
    config.onFilter?.();
    state.applyFilters(next);
  };
  const reset = () => {
    config.onFilter?.();
    state.applyFilters(kept());
  };
  /** Sets some URL keys (a folder chosen beside the list), the others kept, from page 1. */
  const refine = (next: Partial<Record<K, string | undefined>>) => {
    config.onFilter?.();
    state.applyFilters({ ...filters, ...next });
  };
  /** Whether a filter of the bar is set (an empty list then says that nothing matches). */
  const filtered = fields.some((f) =>
    f.kind === 'range' || f.kind === 'numberRange'
      ? Boolean(filters[f.from] || filters[f.to])
      : Boolean(filters[f.key]),
  );

  return {
    config: config as TableConfig<T>,
    fields,
    state,
    /** The request of the page shown (for an export of the same filters). */
    request,
    query: query as typeof query & ListQuery<T>,
    values,
    search,
    reset,
    refine,
    filtered,
  };
}

/** What `<ListPage>` needs of `useListPage`'s answer. */
export interface ListPageState<T> {
  config: TableConfig<T>;
  fields: readonly FilterField[];
  state: ReturnType<typeof useUrlListState>;
  query: ListQuery<T>;
  values: Record<string, unknown>;
  search: (form: Record<string, unknown>) => void;
  reset: () => void;
}

/**
 * One filter field's control: the form item's direct child (called, not rendered as a
 * component of its own, so the form binds its value and onChange to the control itself).
 */
function filterControl<K extends string>(field: FilterField<K>, testId: string) {
  const style: CSSProperties | undefined = field.width ? { width: field.width } : undefined;
  switch (field.kind) {
    case 'select':
      return (
        <Select
          allowClear={field.defaultValue === undefined}
          showSearch={field.showSearch ? { optionFilterProp: 'label' } : undefined}
          options={field.options as { value: string; label: ReactNode }[]}
          placeholder={field.placeholder}
          loading={field.loading}
          style={style ?? { width: 160 }}
          data-testid={testId}
        />
      );
    case 'range':
      return (
        <DatePicker.RangePicker allowEmpty={[true, true]} showTime={field.time} style={style} data-testid={testId} />
      );
    case 'numberRange':
      return (
        <Space.Compact>
          {([field.from, field.to] as const).map((key, i) => (
            <Form.Item key={key} name={key as string} noStyle>
              <InputNumber
                min={field.min ?? 0}
                placeholder={field.placeholders[i]}
                aria-label={field.placeholders[i]}
                style={{ width: field.width ?? 90 }}
                data-testid={`${testId}-${i === 0 ? 'from' : 'to'}`}
              />
            </Form.Item>
          ))}
        </Space.Compact>
      );
    case 'check':
      return <Checkbox data-testid={testId}>{field.label}</Checkbox>;
    case 'custom':
      return field.render();
    default:
      return (
        <Input
          allowClear
          maxLength={field.maxLength ?? 50}
          placeholder={field.placeholder}
          style={style}
          data-testid={testId}
        />
      );
  }
}

export type ListPageProps<T extends object> = Omit<ListTableProps<T>, 'config' | 'query' | 'state' | 'title'> & {
  list: ListPageState<T>;
  /** The list card's title. */
  title?: ReactNode;
  /**
   * The prefix of the page's test ids (default the table id): the page `<prefix>-page`, the
   * filter bar's `<prefix>-search` and `<prefix>-reset`, a filter's `<prefix>-filter-<key>`.
   */
  testPrefix?: string;
  /** The page's data-testid (default `<prefix>-page`) and its class names besides `mq-view`. */
  testId?: string;
  className?: string;
  /** The data-testids of the filter bar's Search and Reset (default `<prefix>-search` / `-reset`). */
  filterTestIds?: { search?: string; reset?: string };
  /** Shown above the filter card (a page heading, a description). */
  header?: ReactNode;
  /** Shown between the filter card and the list card (tabs, a chart, a summary). */
  above?: ReactNode;
  /** The list card's extra (right of its title). */
  extra?: ReactNode;
  /** Shown in the list card below the table (a legend, a note on the figures). */
  below?: ReactNode;
  /** Beside the filter and list cards, on the left (a folder tree, categories). */
  side?: ReactNode;
  /**
   * Draws the rows itself instead of the table (a grid of cards: its own loading and empty
   * states); the toolbar stays above it, `bodyTools` right of the toolbar, the pagination below.
   */
  body?: ReactNode;
  bodyTools?: ReactNode;
  /**
   * Right of the list card on wide screens, below it on narrow ones (a panel acting on the
   * chosen rows: remote control's commands).
   */
  beside?: ReactNode;
  /** Shown in the list card instead of the toolbar, table and pagination (another view of the list: a map). */
  instead?: ReactNode;
  /**
   * A list inside another page (a tab of it), not a page: no cards and no `mq-view` (the filter
   * bar, then the table); `title`, `extra`, `header` and `side` are not drawn.
   */
  bare?: boolean;
  /** The page's dialogs and drawers. */
  children?: ReactNode;
};

/** The form item of one filter field: a number range's two inputs bind their own keys, a check box its `checked`. */
function filterItem(field: FilterField, testId: string) {
  const control = filterControl(field, testId);
  if (field.kind === 'numberRange')
    return (
      <Form.Item key={field.key} label={field.label}>
        {control}
      </Form.Item>
    );
  return (
    <Form.Item
      key={field.key}
      name={field.key}
      label={field.kind === 'check' ? undefined : field.label}
      valuePropName={field.kind === 'check' ? 'checked' : undefined}
      rules={field.rules}
    >
      {control}
    </Form.Item>
  );
}

/**
 * The frame of a declared list page: the filter card (its fields from the declaration, Search
 * and Reset), then the list card with the title, the toolbar and the table, then the dialogs.
 */
export function ListPage<T extends object>({
  list,
  title,
  testPrefix,
  testId,
  className,
  filterTestIds,
  header,
  above,
  extra,
  below,
  side,
  body,
  bodyTools,
  beside,
  instead,
  bare,
  children,
  ...table
}: ListPageProps<T>) {
  const id = testPrefix ?? list.config.id;
  const filterBar = list.fields.length > 0 && (
    <FilterBar
      values={list.values}
      onSearch={list.search}
      onReset={list.reset}
      testIds={{ search: `${id}-search`, reset: `${id}-reset`, ...filterTestIds }}
      className="mq-filter-form"
    >
      {list.fields.map((field) => filterItem(field, field.testId ?? `${id}-filter-${field.key}`))}
    </FilterBar>
  );
  if (bare)
    return (
      <div className={`mq-list-bare${className ? ` ${className}` : ''}`} data-testid={testId ?? `${id}-page`}>
        {filterBar}
        {above}
        {instead ?? <ListTable<T> config={list.config} query={list.query} state={list.state} {...table} />}
        {children}
      </div>
    );
  const listCard = (
    <Card size="small" className="mq-list-card" title={title} extra={extra}>
      {instead !== undefined ? (
        instead
      ) : body === undefined ? (
        <ListTable<T> config={list.config} query={list.query} state={list.state} {...table} />
      ) : (
        <>
          <div className="mq-list-tools">
            <div className="mq-list-tools-main">{table.toolbar}</div>
            {bodyTools}
          </div>
          {body}
          <Pagination
            className="mq-list-pagination"
            {...listPagination(list.state, list.query.data?.total ?? 0, (total) =>
              table.showTotal(total, Boolean(list.query.data?.totalCapped)),
            )}
          />
        </>
      )}
      {below}
    </Card>
  );
  const main = (
    <>
      {header}
      {filterBar && (
        <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
          {filterBar}
        </Card>
      )}
      {above}
      {beside === undefined ? (
        listCard
      ) : (
        <Row gutter={[12, 12]}>
          <Col xs={24} xl={15}>
            {listCard}
          </Col>
          <Col xs={24} xl={9}>
            {beside}
          </Col>
        </Row>
      )}
    </>
  );
  return (
    <div className={`mq-view${className ? ` ${className}` : ''}`} data-testid={testId ?? `${id}-page`}>
      {side === undefined ? (
        main
      ) : (
        <div className="mq-list-layout">
          <aside className="mq-list-side">{side}</aside>
          <div className="mq-list-main">{main}</div>
        </div>
      )}
      {children}
    </div>
  );
}
