import { DownloadOutlined } from '@ant-design/icons';
import { type OperationLogFilter, type OperationLogItem, TIME_FORMAT } from '@marquee/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Form, Input, Select, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { timeColumn } from '../../components/columns';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { NotForMonitor } from '../../components/MonitorGuard';
import type { TableConfig } from '../../components/tableConfig';
import { useSession } from '../../session/session';
import { ExportDialog } from './ExportDialog';
import { actionLabel, moduleLabel, targetLabel } from './labels';

const FILTER_KEYS = ['account', 'module', 'action', 'from', 'to', 'entId'] as const;

interface FormValues {
  account?: string;
  module?: string;
  action?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
  entId?: string;
}

/**
 * The operation log (/report/operationLog): every mutation of the product, filtered by
 * account, module, action and time range (kept in the URL), newest first, with an Excel
 * export that runs in the background and shows its progress.
 */
export default function OperationLogPage() {
  const { t, i18n } = useTranslation(['operationLog', 'common']);
  const language = i18n.language;
  const isYXF = useSession((s) => s.isYXF);
  const listState = useUrlListState(FILTER_KEYS);
  const { page, size, filters } = listState;
  const [exportFilter, setExportFilter] = useState<OperationLogFilter | null>(null);

  const filter: OperationLogFilter = useMemo(
    () => Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) as OperationLogFilter,
    [filters],
  );

  // The time range is one field over two URL keys.
  const fields: FormValues = useMemo(
    () => ({
      account: filters.account,
      module: filters.module,
      action: filters.action,
      entId: filters.entId,
      range:
        filters.from || filters.to
          ? [filters.from ? dayjs(filters.from) : null, filters.to ? dayjs(filters.to) : null]
          : null,
    }),
    [filters],
  );

  const list = useQuery({
    // `round`: Search and Reset fetch again even when the filters are those shown.
    queryKey: ['operationLog.list', page, size, filter, listState.round],
    queryFn: ({ signal }) => call('operationLogList', { page, size, ...filter }, { signal }),
    placeholderData: keepPreviousData,
  });
  const options = useQuery({
    queryKey: ['operationLog.options'],
    queryFn: () => call('operationLogOptions', {}, { silent: true }),
    staleTime: 60_000,
  });
  const showEnterprise = isYXF || (options.data?.enterprises.length ?? 0) > 0;

  const search = ({ range, ...values }: FormValues) => {
    const [from, to] = range ?? [];
    listState.applyFilters({ ...values, from: from?.toISOString(), to: to?.toISOString() });
  };

  const config: TableConfig<OperationLogItem> = {
    id: 'operationLog',
    columns: [
      timeColumn('time', t('col.time'), { width: 180 }),
      { prop: 'loginName', label: t('col.account'), width: 160, ellipsis: true },
      // Shown where there is more than one enterprise to tell apart.
      { prop: 'entName', label: t('col.enterprise'), width: 200, ellipsis: true, show: showEnterprise },
      { prop: 'module', label: t('col.module'), width: 140, slot: (v: string) => moduleLabel(language, v) },
      { prop: 'action', label: t('col.action'), width: 140, slot: (v: string) => actionLabel(language, v) },
      {
        prop: 'target',
        label: t('col.target'),
        width: 260,
        ellipsis: true,
        slot: (_: unknown, row) =>
          row.targetType || row.targetId ? (
            <span title={row.targetId ?? ''}>
              {row.targetType ? targetLabel(language, row.targetType) : ''}
              {row.targetName || row.targetId ? ` ${row.targetName ?? row.targetId}` : ''}
            </span>
          ) : (
            '-'
          ),
      },
      { prop: 'ip', label: t('col.ip'), width: 150 },
      {
        prop: 'result',
        label: t('col.result'),
        width: 100,
        slot: (v: 'success' | 'failure') => <Tag color={v === 'success' ? 'success' : 'error'}>{t(`result.${v}`)}</Tag>,
      },
    ],
  };

  // A code from the URL that no entry has (yet) still shows translated in its select.
  const withCurrent = (codes: string[], current: string | undefined) =>
    current && !codes.includes(current) ? [...codes, current] : codes;
  const moduleOptions = withCurrent(options.data?.modules ?? [], filters.module).map((m) => ({
    value: m,
    label: moduleLabel(language, m),
  }));
  const actionOptions = withCurrent(options.data?.actions ?? [], filters.action).map((a) => ({
    value: a,
    label: actionLabel(language, a),
  }));

  return (
    <div className="mq-view mq-oplog" data-testid="oplog-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <FilterBar
          values={fields}
          onSearch={search}
          onReset={listState.clearFilters}
          testIds={{ search: 'oplog-search', reset: 'oplog-reset' }}
          className="mq-filter-form"
        >
          <Form.Item name="account" label={t('filter.account')}>
            <Input allowClear placeholder={t('filter.accountPlaceholder')} data-testid="oplog-filter-account" />
          </Form.Item>
          <Form.Item name="module" label={t('filter.module')}>
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              style={{ width: 170 }}
              options={moduleOptions}
              placeholder={t('filter.all')}
              data-testid="oplog-filter-module"
            />
          </Form.Item>
          <Form.Item name="action" label={t('filter.action')}>
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              style={{ width: 150 }}
              options={actionOptions}
              placeholder={t('filter.all')}
              data-testid="oplog-filter-action"
            />
          </Form.Item>
          <Form.Item name="range" label={t('filter.time')}>
            <DatePicker.RangePicker
              showTime
              format={TIME_FORMAT}
              allowEmpty={[true, true]}
              data-testid="oplog-filter-time"
            />
          </Form.Item>
          {showEnterprise ? (
            <Form.Item name="entId" label={t('filter.enterprise')}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                style={{ width: 220 }}
                options={options.data?.enterprises ?? []}
                placeholder={t('filter.all')}
                data-testid="oplog-filter-enterprise"
              />
            </Form.Item>
          ) : null}
        </FilterBar>
      </Card>
      <Card size="small" className="mq-list-card" title={t('title')}>
        <ListTable
          config={config}
          query={list}
          state={listState}
          toolbar={
            <NotForMonitor>
              <Button icon={<DownloadOutlined />} onClick={() => setExportFilter(filter)} data-testid="oplog-export">
                {t('export.button')}
              </Button>
            </NotForMonitor>
          }
          rowTestId={() => 'oplog-row'}
          empty={t('empty')}
          showTotal={(total) => t('total', { count: total })}
        />
      </Card>
      <ExportDialog filter={exportFilter} onClose={() => setExportFilter(null)} />
    </div>
  );
}
