import { PlusOutlined, ShareAltOutlined, TeamOutlined } from '@ant-design/icons';
import { type DeviceGroupRow, formatTime, Perm, RefType } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { call } from '../../api/client';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { NotForMonitor } from '../../components/MonitorGuard';
import { PermissionDialog } from '../../components/permission-dialog/PermissionDialog';
import type { TableConfig } from '../../components/tableConfig';
import { useCan } from '../../session/useCan';
import { BulkShareDialog } from './BulkShareDialog';

const FILTER_KEYS = ['name'] as const;

/**
 * Device groups (/device/group): the groups the caller can see with their visible device
 * counts; add and edit open /device/group/addView, delete asks first; share opens the
 * permission dialog (ref-type '2': a department granted a group sees its devices); the
 * bulk allocation dialog shares devices by tag, group, department or an imported sheet.
 */
export default function GroupPage() {
  const { t } = useTranslation(['deviceGroups', 'common']);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const can = useCan();
  const queryClient = useQueryClient();
  const listState = useUrlListState(FILTER_KEYS);
  const { page, size, filters } = listState;
  const [sharing, setSharing] = useState<DeviceGroupRow[] | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);

  const list = useQuery({
    queryKey: ['deviceGroups', 'list', page, size, filters.name ?? ''],
    queryFn: ({ signal }) => call('deviceGroupList', { page, size, name: filters.name }, { signal }),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: (id: string) => call('deviceGroupDelete', { ids: [id] }),
    onSuccess: () => {
      void message.success(t('toast.deleted'));
      void queryClient.invalidateQueries({ queryKey: ['deviceGroups'] });
    },
  });

  const edit = (row: DeviceGroupRow) => navigate(`/device/group/addView?id=${encodeURIComponent(row.id)}`);
  const config: TableConfig<DeviceGroupRow> = {
    id: 'deviceGroups',
    operationsLabel: t('column.actions'),
    columns: [
      { prop: 'name', label: t('column.name'), width: 220, ellipsis: true },
      { prop: 'deviceCount', label: t('column.devices'), width: 110, align: 'right', showThousands: true },
      { prop: 'remark', label: t('column.remark'), width: 220, ellipsis: true, slot: (v: string) => v || '-' },
      { prop: 'deptName', label: t('column.department'), width: 160, ellipsis: true },
      { prop: 'ownerName', label: t('column.owner'), width: 140, ellipsis: true },
      { prop: 'updatedAt', label: t('column.updatedAt'), width: 180, slot: (v: string) => formatTime(v) },
    ],
    operations: [
      {
        key: 'edit',
        label: t('edit'),
        authCode: Perm.deviceGroup,
        notForMonitor: true,
        disabled: (row) => (row.hasPermission ? false : t('edit.noPermission')),
        handler: edit,
        testId: (row) => `group-edit-${row.name}`,
      },
      {
        key: 'share',
        label: t('share'),
        authCode: Perm.dataAllocation,
        icon: <ShareAltOutlined />,
        disabled: (row) => (row.hasPermission ? false : t('share.noPermission')),
        handler: (row) => setSharing([row]),
        testId: (row) => `group-share-${row.name}`,
      },
      {
        key: 'delete',
        label: t('delete'),
        authCode: Perm.deviceGroup,
        notForMonitor: true,
        danger: true,
        disabled: (row) => (row.hasPermission ? false : t('edit.noPermission')),
        confirm: (row) => ({ title: t('confirm.delete', { name: row.name }), description: t('confirm.deleteHint') }),
        handler: (row) => remove.mutateAsync(row.id),
        testId: (row) => `group-delete-${row.name}`,
      },
    ],
  };

  return (
    <div className="mq-view mq-device-groups" data-testid="device-group-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <FilterBar
          values={filters}
          onSearch={listState.applyFilters}
          onReset={listState.clearFilters}
          testIds={{ search: 'group-search', reset: 'group-reset' }}
        >
          <Form.Item name="name" label={t('filter.name')}>
            <Input
              allowClear
              maxLength={64}
              placeholder={t('filter.namePlaceholder')}
              data-testid="group-filter-name"
            />
          </Form.Item>
        </FilterBar>
      </Card>
      <Card size="small" className="mq-list-card" title={t('title')}>
        <ListTable
          config={config}
          query={list}
          state={listState}
          toolbar={
            <NotForMonitor>
              <Space>
                <Button
                  type="primary"
                  icon={<PlusOutlined />}
                  onClick={() => navigate('/device/group/addView')}
                  data-testid="group-add"
                >
                  {t('add')}
                </Button>
                {can(Perm.dataAllocation) ? (
                  <Button icon={<TeamOutlined />} onClick={() => setBulkOpen(true)} data-testid="group-bulk-share">
                    {t('bulkShare')}
                  </Button>
                ) : null}
              </Space>
            </NotForMonitor>
          }
          rowTestId={(row) => `group-row-${row.name}`}
          empty={t('empty')}
          emptyImage={Empty.PRESENTED_IMAGE_SIMPLE}
          showTotal={(total) => t('total', { count: total })}
        />
      </Card>
      <PermissionDialog
        open={sharing !== null}
        refType={RefType.deviceGroup}
        refIds={sharing?.map((s) => s.id) ?? []}
        names={sharing?.map((s) => s.name) ?? []}
        onClose={() => setSharing(null)}
        onDone={() => void queryClient.invalidateQueries({ queryKey: ['deviceGroups'] })}
      />
      <BulkShareDialog open={bulkOpen} defaultBy="group" onClose={() => setBulkOpen(false)} />
    </div>
  );
}
