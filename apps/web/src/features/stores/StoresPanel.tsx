import { PlusOutlined } from '@ant-design/icons';
import { formatTime, Perm, STORE_SORT_KEYS, type Store } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import type { TableConfig } from '../../components/tableConfig';
import { useCan } from '../../session/useCan';
import { DeptPicker, useCanPickDept } from '../accounts/AccountFields';
import { AssignDevicesDialog } from './AssignDevicesDialog';
import { RegionPicker } from './RegionPicker';
import { StoreDialog } from './StoreDialog';
import { formatPoint } from './texts';

const FILTER_KEYS = ['keyword', 'regionCode', 'deptId'] as const;

/**
 * Stores (the spec's 'users, departments and stores'): the places screens stand in, beside
 * departments in /user/company. Filters (keyword, region, department) in the URL; add, edit,
 * place devices and delete (asks first; the server refuses while devices stand in it).
 */
export function StoresPanel() {
  const { t } = useTranslation(['stores', 'common']);
  const canPickDept = useCanPickDept();
  const { message } = App.useApp();
  const can = useCan();
  const manage = can(Perm.userStoreManage);
  const queryClient = useQueryClient();
  const listState = useUrlListState(FILTER_KEYS, { sortKeys: STORE_SORT_KEYS });
  const { filters, pageRequest } = listState;
  const [dialog, setDialog] = useState<{ open: boolean; editing: Store | null }>({ open: false, editing: null });
  const [assigning, setAssigning] = useState<Store | null>(null);

  const list = useQuery({
    queryKey: ['stores', 'list', pageRequest, filters],
    queryFn: ({ signal }) => call('storeList', { ...pageRequest, ...filters }, { signal }),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: (id: string) => call('storeDelete', { id }),
    onSuccess: () => {
      void message.success(t('toast.deleted'));
      void queryClient.invalidateQueries({ queryKey: ['stores'] });
    },
  });

  const manageOp = { authCode: Perm.userStoreManage, notForMonitor: true };
  const config: TableConfig<Store> = {
    id: 'stores',
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
        handler: (row) => remove.mutateAsync(row.id),
        testId: (row) => `store-delete-${row.name}`,
      },
    ],
  };

  return (
    <div data-testid="stores-panel">
      <FilterBar
        values={filters}
        onSearch={listState.applyFilters}
        onReset={listState.clearFilters}
        testIds={{ search: 'store-search', reset: 'store-reset' }}
        className="mq-org-filters"
      >
        <Form.Item name="keyword" label={t('filter.keyword')}>
          <Input allowClear placeholder={t('filter.keywordHint')} data-testid="store-filter-keyword" />
        </Form.Item>
        <Form.Item name="regionCode" label={t('field.region')}>
          <RegionPicker style={{ width: 240 }} placeholder={t('filter.all')} testId="store-filter-region" />
        </Form.Item>
        {canPickDept ? (
          <Form.Item name="deptId" label={t('field.dept')}>
            <DeptPicker allowClear style={{ width: 180 }} placeholder={t('filter.all')} testId="store-filter-dept" />
          </Form.Item>
        ) : null}
      </FilterBar>
      <ListTable
        config={config}
        query={list}
        state={listState}
        toolbar={
          manage ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setDialog({ open: true, editing: null })}
              data-testid="store-add"
            >
              {t('add')}
            </Button>
          ) : null
        }
        rowTestId={(row) => `store-row-${row.name}`}
        empty={t('empty')}
        failed={{ description: t('loadFailed'), retryLabel: t('action.retry') }}
        showTotal={(total) => t('total', { count: total })}
      />
      <StoreDialog
        open={dialog.open}
        editing={dialog.editing}
        onClose={() => setDialog({ open: false, editing: null })}
      />
      <AssignDevicesDialog store={assigning} onClose={() => setAssigning(null)} />
    </div>
  );
}
