import { PlusOutlined } from '@ant-design/icons';
import { Perm, type PromotionPlan } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { timeColumn } from '../../components/columns';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { NotForMonitor } from '../../components/MonitorGuard';
import type { TableConfig } from '../../components/tableConfig';
import { PlanDialog } from './PlanDialog';

const FILTER_KEYS = ['name'] as const;

/**
 * Promotion plans (/advert/plan): the plans of the caller's scope with add, edit and delete
 * (asked first). The enterprise's default plan is tagged and cannot be edited or deleted.
 */
export default function PlanPage() {
  const { t } = useTranslation(['ads', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const listState = useUrlListState(FILTER_KEYS);
  const { filters, pageRequest } = listState;
  const [dialog, setDialog] = useState<{ open: boolean; editing: PromotionPlan | null }>({
    open: false,
    editing: null,
  });

  const list = useQuery({
    queryKey: ['adPlans', 'list', pageRequest, filters],
    queryFn: ({ signal }) => call('planList', { ...pageRequest, ...filters }, { signal }),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: (id: string) => call('planDelete', { id }),
    onSuccess: () => {
      void message.success(t('plan.deleted'));
      void queryClient.invalidateQueries({ queryKey: ['adPlans'] });
    },
  });

  const locked = (row: PromotionPlan) =>
    row.isDefault ? t('plan.defaultLocked') : row.hasPermission ? false : t('noPermission');
  const manage = { authCode: Perm.advPlan, notForMonitor: true, disabled: locked };
  const config: TableConfig<PromotionPlan> = {
    id: 'adPlans',
    operationsLabel: t('actions'),
    columns: [
      {
        prop: 'name',
        label: t('plan.field.name'),
        width: 220,
        slot: (name: string, row) => (
          <span data-testid={`plan-name-${row.name}`}>
            {name}
            {row.isDefault ? (
              <Tag color="blue" style={{ marginInlineStart: 8 }} data-testid="plan-default-tag">
                {t('plan.default')}
              </Tag>
            ) : null}
          </span>
        ),
      },
      {
        prop: 'budget',
        label: t('plan.field.budget'),
        width: 140,
        align: 'right',
        slot: (budget: number | null) =>
          budget === null ? t('plan.noBudget') : budget.toLocaleString(undefined, { minimumFractionDigits: 2 }),
      },
      {
        prop: 'startDate',
        label: t('plan.field.dates'),
        width: 220,
        slot: (_v: string | null, row) =>
          row.startDate || row.endDate ? `${row.startDate ?? '…'} ~ ${row.endDate ?? '…'}` : t('plan.noDates'),
      },
      { prop: 'adCount', label: t('plan.field.adCount'), width: 100, showThousands: true },
      { prop: 'ownerName', label: t('field.owner'), width: 130, ellipsis: true },
      { prop: 'deptName', label: t('field.dept'), width: 130, ellipsis: true },
      timeColumn('createdAt', t('field.createdAt')),
    ],
    operations: [
      {
        ...manage,
        key: 'edit',
        label: t('edit'),
        handler: (row) => setDialog({ open: true, editing: row }),
        testId: (row) => `plan-edit-${row.name}`,
      },
      {
        ...manage,
        key: 'delete',
        label: t('delete'),
        danger: true,
        confirm: (row) => ({ title: t('plan.confirmDelete', { name: row.name }) }),
        handler: (row) => remove.mutateAsync(row.id),
        testId: (row) => `plan-delete-${row.name}`,
      },
    ],
  };
  return (
    <div className="mq-view mq-ad-plans" data-testid="plan-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <FilterBar
          values={filters}
          onSearch={listState.applyFilters}
          onReset={listState.clearFilters}
          testIds={{ search: 'plan-search', reset: 'plan-reset' }}
        >
          <Form.Item name="name" label={t('plan.field.name')}>
            <Input allowClear data-testid="plan-filter-name" />
          </Form.Item>
        </FilterBar>
      </Card>
      <Card size="small" className="mq-list-card" title={t('plan.title')}>
        <ListTable
          config={config}
          query={list}
          state={listState}
          toolbar={
            <NotForMonitor>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setDialog({ open: true, editing: null })}
                data-testid="plan-add"
              >
                {t('plan.add')}
              </Button>
            </NotForMonitor>
          }
          rowTestId={(row) => `plan-row-${row.name}`}
          empty={t('plan.empty')}
          showTotal={(total) => t('plan.total', { count: total })}
        />
      </Card>
      <PlanDialog
        open={dialog.open}
        editing={dialog.editing}
        onClose={() => setDialog({ open: false, editing: dialog.editing })}
      />
    </div>
  );
}
