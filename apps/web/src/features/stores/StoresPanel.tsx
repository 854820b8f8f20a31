import { formatTime, Perm, type Store } from '@marquee/protocol';
import { Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { AddButton } from '../../components/AddButton';
import { ListPage, useListPage } from '../../components/listPage';
import { DeptPicker, useCanPickDept } from '../../components/pickers/DeptPicker';
import { AssignDevicesDialog } from './AssignDevicesDialog';
import { RegionPicker } from './RegionPicker';
import { StoreDialog } from './StoreDialog';
import { formatPoint } from './texts';

/**
 * Stores (the spec's 'users, departments and stores'): the places screens stand in, beside
 * departments in /user/company. Filters (keyword, region, department) in the URL; add, edit,
 * place devices and delete (asks first; the server refuses while devices stand in it).
 */
export function StoresPanel() {
  const { t } = useTranslation(['stores', 'common']);
  const canPickDept = useCanPickDept();
  const [dialog, setDialog] = useState<{ open: boolean; editing: Store | null }>({ open: false, editing: null });
  const [assigning, setAssigning] = useState<Store | null>(null);

  // A deleted store's devices show no store in the device list.
  const remove = useCallMutation('storeDelete', { success: t('toast.deleted'), invalidates: ['devices'] });

  const manageOp = { authCode: Perm.userStoreManage, notForMonitor: true };
  const list = useListPage({
    id: 'stores',
    endpoint: 'storeList',
    filters: [
      {
        key: 'keyword',
        label: t('filter.keyword'),
        placeholder: t('filter.keywordHint'),
        testId: 'store-filter-keyword',
      },
      {
        key: 'regionCode',
        kind: 'custom',
        label: t('field.region'),
        render: () => (
          <RegionPicker style={{ width: 240 }} placeholder={t('filter.all')} testId="store-filter-region" />
        ),
      },
      {
        key: 'deptId',
        kind: 'custom',
        label: t('field.dept'),
        hidden: !canPickDept,
        render: () => (
          <DeptPicker allowClear style={{ width: 180 }} placeholder={t('filter.all')} testId="store-filter-dept" />
        ),
      },
    ],
    operationsLabel: t('actions'),
    columns: [
      { prop: 'name', label: t('field.name'), width: 180, ellipsis: true, sortable: true },
      { prop: 'regionName', label: t('field.region'), width: 200, ellipsis: true, slot: (v: string) => v || '-' },
      { prop: 'address', label: t('field.address'), width: 240, ellipsis: true },
      { prop: 'poi', label: t('field.poi'), width: 140, ellipsis: true, slot: (v: string) => v || '-' },
      {
        prop: 'latitude',
        label: t('field.coordinates'),
        width: 250,
        slot: (_v: number | null, row) =>
          row.latitude === null || row.longitude === null ? (
            '-'
          ) : (
            <Space size={4} wrap={false}>
              <span className="mq-num">{formatPoint(row.latitude, row.longitude)}</span>
              {row.approximate ? (
                <Tooltip title={t('approximateHint')}>
                  <Tag color="warning" data-testid={`store-approximate-${row.name}`}>
                    {t('approximate')}
                  </Tag>
                </Tooltip>
              ) : null}
            </Space>
          ),
      },
      { prop: 'deptName', label: t('field.dept'), width: 130, ellipsis: true, slot: (v: string) => v || '-' },
      { prop: 'contactName', label: t('field.contactName'), width: 110, ellipsis: true, slot: (v: string) => v || '-' },
      { prop: 'contactPhone', label: t('field.contactPhone'), width: 140, slot: (v: string) => v || '-' },
      {
        prop: 'deviceCount',
        label: t('field.deviceCount'),
        width: 110,
        align: 'right',
        sortable: true,
        showThousands: true,
      },
      {
        prop: 'createdAt',
        label: t('field.createdAt'),
        width: 170,
        sortable: true,
        show: false,
        slot: (v: string) => formatTime(v),
      },
    ],
    operations: [
      {
        ...manageOp,
        key: 'edit',
        label: t('action.edit'),
        handler: (row) => setDialog({ open: true, editing: row }),
        testId: (row) => `store-edit-${row.name}`,
      },
      {
        ...manageOp,
        key: 'devices',
        label: t('action.devices'),
        handler: (row) => setAssigning(row),
        testId: (row) => `store-devices-${row.name}`,
      },
      {
        ...manageOp,
        key: 'delete',
        label: t('action.delete'),
        danger: true,
        disabled: (row) => (row.deviceCount > 0 ? t('deleteBlocked', { count: row.deviceCount }) : false),
        confirm: (row) => ({ title: t('deleteConfirm', { name: row.name }) }),
        handler: (row) => remove.mutateAsync({ id: row.id }),
        testId: (row) => `store-delete-${row.name}`,
      },
    ],
  });

  return (
    <ListPage
      list={list}
      bare
      testId="stores-panel"
      filterTestIds={{ search: 'store-search', reset: 'store-reset' }}
      toolbar={
        <AddButton
          label={t('add')}
          authCode={Perm.userStoreManage}
          onClick={() => setDialog({ open: true, editing: null })}
          testId="store-add"
        />
      }
      rowTestId={(row) => `store-row-${row.name}`}
      empty={t('empty')}
      failed={{ description: t('loadFailed'), retryLabel: t('action.retry') }}
      showTotal={(total) => t('total', { count: total })}
    >
      <StoreDialog
        open={dialog.open}
        editing={dialog.editing}
        onClose={() => setDialog({ open: false, editing: null })}
      />
      <AssignDevicesDialog store={assigning} onClose={() => setAssigning(null)} />
    </ListPage>
  );
}
