import { Perm, type PromotionPlan } from '@marquee/protocol';
import { Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { AddButton } from '../../components/AddButton';
import { timeColumn } from '../../components/columns';
import { editDeleteOperations } from '../../components/editDeleteOperations';
import { ListPage, useListPage } from '../../components/listPage';
import { PlanDialog } from './PlanDialog';

/**
 * Promotion plans (/advert/plan): the plans of the caller's scope with add, edit and delete
 * (asked first). The enterprise's default plan is tagged and cannot be edited or deleted.
 */
export default function PlanPage() {
  const { t } = useTranslation(['ads', 'common']);
  const [dialog, setDialog] = useState<{ open: boolean; editing: PromotionPlan | null }>({
    open: false,
    editing: null,
  });
  const remove = useCallMutation('planDelete', { success: t('plan.deleted') });

  const locked = (row: PromotionPlan) =>
    row.isDefault ? t('plan.defaultLocked') : row.hasPermission ? false : t('noPermission');
  const manage = { authCode: Perm.advPlan, notForMonitor: true, disabled: locked };
  const list = useListPage({
    id: 'adPlans',
    endpoint: 'planList',
    filters: [{ key: 'name', label: t('plan.field.name') }],
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
    operations: editDeleteOperations({
      prefix: 'plan',
      shared: manage,
      edit: (row) => setDialog({ open: true, editing: row }),
      remove: remove.mutateAsync,
      editLabel: t('edit'),
      deleteLabel: t('delete'),
      confirm: (row) => ({ title: t('plan.confirmDelete', { name: row.name }) }),
    }),
  });

  return (
    <ListPage
      list={list}
      testPrefix="plan"
      className="mq-ad-plans"
      title={t('plan.title')}
      toolbar={
        <AddButton
          label={t('plan.add')}
          notForMonitor
          onClick={() => setDialog({ open: true, editing: null })}
          testId="plan-add"
        />
      }
      rowTestId={(row) => `plan-row-${row.name}`}
      empty={t('plan.empty')}
      showTotal={(total) => t('plan.total', { count: total })}
    >
      <PlanDialog
        open={dialog.open}
        editing={dialog.editing}
        onClose={() => setDialog({ open: false, editing: dialog.editing })}
      />
    </ListPage>
  );
}
