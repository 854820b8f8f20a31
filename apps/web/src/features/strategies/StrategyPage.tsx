import {
  type DownloadRules,
  type LevelRules,
  type OperationRules,
  Perm,
  type PowerRules,
  STRATEGY_TYPES,
  type StrategyRow,
  type StrategyType,
} from '@marquee/protocol';
import { Tabs, Tag } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { ApplyDialog } from './ApplyDialog';
import { StrategyDialog } from './StrategyDialog';
import './strategy.css';
import { AddButton } from '../../components/AddButton';
import { editDeleteOperations } from '../../components/editDeleteOperations';

const isType = (v: string | undefined): v is StrategyType => (STRATEGY_TYPES as readonly string[]).includes(v ?? '');

/** One line saying what a strategy does, in the user's language. */
function summary(t: TFunction, row: StrategyRow): string {
  switch (row.type) {
    case 'power': {
      const r = row.rules as unknown as PowerRules;
      const first = r.weekly?.[0];
      return t('summary.power', {
        count: (r.weekly?.length ?? 0) + (r.once?.length ?? 0),
        first: first ? `${first.off}–${first.on}` : '-',
      });
    }
    case 'volume':
    case 'brightness': {
      const r = row.rules as unknown as LevelRules;
      return t('summary.level', { level: r.defaultLevel, count: r.periods?.length ?? 0 });
    }
    case 'operation': {
      const r = row.rules as unknown as OperationRules;
      return t('summary.operation', { sec: r.autoStartSec, min: r.reportCycleMin });
    }
    case 'download': {
      const r = row.rules as unknown as DownloadRules;
      return t('summary.download', { concurrency: r.concurrency, count: r.windows?.length ?? 0 });
    }
  }
}

/**
 * Device strategies (/device/strategy): one tab per type (power, volume, brightness,
 * operation, download) listing the strategies the caller can see, with add, edit, apply to
 * devices (with each device's acknowledgement), the latest results, and delete (refused
 * while some device has the strategy).
 */
export default function StrategyPage() {
  const { t } = useTranslation(['strategies', 'common']);
  const [dialog, setDialog] = useState<{ open: boolean; editing: StrategyRow | null }>({ open: false, editing: null });
  const [applying, setApplying] = useState<{ row: StrategyRow | null; results: boolean }>({
    row: null,
    results: false,
  });

  const remove = useCallMutation('strategyDelete', { success: t('toast.deleted') });

  const manage = { authCode: Perm.deviceStrategy, notForMonitor: true };
  const list = useListPage({
    id: 'strategies',
    endpoint: 'strategyList',
    // The tab (type) is set beside the bar; no type in the URL is the first tab.
    scope: ['type'],
    filters: [{ key: 'keyword', label: t('field.name') }],
    request: (f, { page, size }) => ({
      page,
      size,
      type: isType(f.type as string) ? (f.type as StrategyType) : 'power',
      keyword: f.keyword as string | undefined,
    }),
    operationsLabel: t('actions'),
    columns: [
      { prop: 'name', label: t('field.name'), width: 180, ellipsis: true },
      {
        prop: 'rules',
        label: t('field.summary'),
        width: 240,
        ellipsis: true,
        slot: (_v: never, row) => summary(t, row),
      },
      {
        prop: 'appliedCount',
        label: t('field.applied'),
        width: 150,
        slot: (count: number, row) => (
          <span data-testid={`strategy-applied-${row.name}`}>
            {t('applied', { count })}
            {row.staleCount > 0 ? (
              <Tag color="warning" style={{ marginLeft: 6 }}>
                {t('stale', { count: row.staleCount })}
              </Tag>
            ) : null}
          </span>
        ),
      },
      { prop: 'remark', label: t('field.remark'), width: 180, ellipsis: true },
      { prop: 'deptName', label: t('field.dept'), width: 130, ellipsis: true },
      { prop: 'ownerName', label: t('field.owner'), width: 120, ellipsis: true, show: false },
      timeColumn<StrategyRow>('updatedAt', t('field.updatedAt')),
    ],
    operations: [
      {
        ...manage,
        key: 'apply',
        label: t('apply.action'),
        handler: (row) => setApplying({ row, results: false }),
        testId: (row) => `strategy-apply-${row.name}`,
      },
      {
        authCode: Perm.deviceStrategy,
        key: 'results',
        label: t('apply.results'),
        isShow: (row) => row.appliedCount > 0,
        handler: (row) => setApplying({ row, results: true }),
        testId: (row) => `strategy-results-${row.name}`,
      },
      ...editDeleteOperations<StrategyRow>({
        prefix: 'strategy',
        shared: manage,
        edit: (row) => setDialog({ open: true, editing: row }),
        remove: remove.mutateAsync,
        editLabel: t('edit'),
        deleteLabel: t('delete'),
        deleteDisabled: (row) => (row.appliedCount > 0 ? t('inUse', { count: row.appliedCount }) : false),
        confirm: (row) => ({ title: t('confirm.delete', { name: row.name }) }),
      }),
    ],
  });
  const type: StrategyType = isType(list.state.filters.type) ? list.state.filters.type : 'power';

  return (
    <ListPage
      list={list}
      testPrefix="strategy"
      className="mq-strategy"
      header={
        <Tabs
          activeKey={type}
          onChange={(key) => list.refine({ type: key })}
          items={STRATEGY_TYPES.map((key) => ({
            key,
            label: <span data-testid={`strategy-tab-${key}`}>{t(`type.${key}`)}</span>,
          }))}
        />
      }
      toolbar={
        <AddButton
          label={t('add', { type: t(`type.${type}`) })}
          notForMonitor
          onClick={() => setDialog({ open: true, editing: null })}
          testId="strategy-add"
        />
      }
      rowTestId={(row) => `strategy-row-${row.name}`}
      empty={t('empty')}
      showTotal={(total) => t('total', { count: total })}
    >
      <StrategyDialog
        open={dialog.open}
        type={dialog.editing?.type ?? type}
        editing={dialog.editing}
        onClose={() => setDialog({ open: false, editing: dialog.editing })}
      />
      <ApplyDialog
        strategy={applying.row}
        results={applying.results}
        onClose={() => setApplying({ row: null, results: false })}
      />
    </ListPage>
  );
}
