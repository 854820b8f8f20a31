import { type DeviceGroupRow, formatTime, Perm, RefType } from '@marquee/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Empty, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { domainKey, useCallMutation } from '../../api/queries';
import { AddButton } from '../../components/AddButton';
import { ListPage, useListPage } from '../../components/listPage';
import { NotForMonitor } from '../../components/MonitorGuard';
import { PermissionDialog } from '../../components/permission-dialog/PermissionDialog';
import { shareOperation } from '../../components/shareOperation';
import { WatermarkDialog, type WatermarkTarget } from '../watermark/WatermarkDialog';
import { BulkShareButton } from './BulkShareDialog';

/**
 * Device groups (/device/group): the groups the caller can see with their visible device
 * counts; add and edit open /device/group/addView, delete asks first; share opens the
 * permission dialog (ref-type '2': a department granted a group sees its devices); the
 * bulk allocation dialog shares devices by tag, group, department or an imported sheet; the
 * watermark dialog sets the watermark its devices show (those without one of their own).
 */
export default function GroupPage() {
  const { t } = useTranslation(['deviceGroups', 'common', 'watermark']);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [sharing, setSharing] = useState<DeviceGroupRow[] | null>(null);
  const [watermarkFor, setWatermarkFor] = useState<WatermarkTarget | null>(null);

  // A deleted group's devices show no group in the device list.
  const remove = useCallMutation('deviceGroupDelete', { success: t('toast.deleted'), invalidates: ['devices'] });

  const edit = (row: DeviceGroupRow) => navigate(`/device/group/addView?id=${encodeURIComponent(row.id)}`);
  const list = useListPage({
    id: 'deviceGroups',
    endpoint: 'deviceGroupList',
    filters: [
      {
        key: 'name',
        label: t('filter.name'),
        placeholder: t('filter.namePlaceholder'),
        maxLength: 64,
        testId: 'group-filter-name',
      },
    ],
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
      shareOperation<DeviceGroupRow>({
        prefix: 'group',
        label: t('share'),
        noPermission: t('share.noPermission'),
        share: (row) => setSharing([row]),
        icon: true,
      }),
      {
        key: 'watermark',
        label: t('watermark:action'),
        authCode: Perm.deviceRemote,
        notForMonitor: true,
        disabled: (row) => (row.hasPermission ? false : t('edit.noPermission')),
        handler: (row) => setWatermarkFor({ kind: 'group', id: row.id, label: row.name }),
        testId: (row) => `group-watermark-${row.name}`,
      },
      {
        key: 'delete',
        label: t('delete'),
        authCode: Perm.deviceGroup,
        notForMonitor: true,
        danger: true,
        disabled: (row) => (row.hasPermission ? false : t('edit.noPermission')),
        confirm: (row) => ({ title: t('confirm.delete', { name: row.name }), description: t('confirm.deleteHint') }),
        handler: (row) => remove.mutateAsync({ ids: [row.id] }),
        testId: (row) => `group-delete-${row.name}`,
      },
    ],
  });

  return (
    <ListPage
      list={list}
      testId="device-group-page"
      className="mq-device-groups"
      filterTestIds={{ search: 'group-search', reset: 'group-reset' }}
      title={t('title')}
      toolbar={
        <NotForMonitor>
          <Space>
            <AddButton label={t('add')} onClick={() => navigate('/device/group/addView')} testId="group-add" />
            <BulkShareButton defaultBy="group" testId="group-bulk-share" />
          </Space>
        </NotForMonitor>
      }
      rowTestId={(row) => `group-row-${row.name}`}
      empty={t('empty')}
      emptyImage={Empty.PRESENTED_IMAGE_SIMPLE}
      showTotal={(total) => t('total', { count: total })}
    >
      <PermissionDialog
        open={sharing !== null}
        refType={RefType.deviceGroup}
        refIds={sharing?.map((s) => s.id) ?? []}
        names={sharing?.map((s) => s.name) ?? []}
        onClose={() => setSharing(null)}
        onDone={() => void queryClient.invalidateQueries({ queryKey: domainKey('deviceGroups') })}
      />
      <WatermarkDialog target={watermarkFor} onClose={() => setWatermarkFor(null)} />
    </ListPage>
  );
}
