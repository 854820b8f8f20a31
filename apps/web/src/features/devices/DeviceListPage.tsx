import { DeleteOutlined, PlusOutlined, ShareAltOutlined } from '@ant-design/icons';
import { type DeviceRow, type Endpoints, LICENCE_STATES, Perm, RefType, type Req } from '@marquee/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Popconfirm, Segmented } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { domainKey, useCallMutation } from '../../api/queries';
import { confirmOkProps } from '../../components/ConfirmAction';
import { type FilterField, ListPage, useListPage } from '../../components/listPage';
import { NotForMonitor } from '../../components/MonitorGuard';
import { PermissionDialog } from '../../components/permission-dialog/PermissionDialog';
import { DeptPicker, useCanPickDept } from '../../components/pickers/DeptPicker';
import { type DeviceFilterKey, useDeviceFilters } from '../../components/pickers/deviceFilters';
import { useDictionary } from '../../components/pickers/useDictionary';
import type { TableOperation } from '../../components/tableConfig';
import { useCan } from '../../session/useCan';
import { DeviceExportButton, DeviceImportButton } from '../deviceIo';
import { DeviceLocationDialog, DeviceRegionMap } from '../geo';
import { AssignLayoutDialog } from './AssignLayoutDialog';
import { CustomFieldsDialog, customFieldColumns, useCustomFields } from './customFields';
import { AddDeviceDialog, EditDeviceDialog } from './DeviceDialogs';
import { deviceListColumns } from './deviceColumns';
import { OfflinePackageDialog } from './OfflinePackageDialog';

/** How often the list refreshes itself (statuses change as screens come and go). */
const REFRESH_MS = 15_000;

/**
 * Devices (/device, spec sections 2 to 4): the screens of the caller's data scope as a list-page
 * declaration (columns from deviceListColumns, the device filters, server-side sorting), add by
 * pairing code or device number (the player's QR link `?pair=CODE` opens the dialog with its
 * code), edit, details, disable/enable and delete (one or a selection, confirmed), an export of
 * the filters shown, and a map of the same devices. The list refreshes itself so statuses
 * follow the fleet.
 */
export default function DeviceListPage() {
  const { t } = useTranslation(['devices', 'common', 'player']);
  const canPickDept = useCanPickDept();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const can = useCan();
  const [params, setParams] = useSearchParams();
  const pairCode = params.get('pair') ?? undefined;
  const [adding, setAdding] = useState(Boolean(pairCode));
  const [editing, setEditing] = useState<DeviceRow | null>(null);
  const [assigning, setAssigning] = useState<DeviceRow | null>(null);
  const [packaging, setPackaging] = useState<DeviceRow | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const canManage = can(Perm.device);
  const [view, setView] = useState<'table' | 'map'>('table');
  const [locating, setLocating] = useState<string | null>(null);
  const [sharing, setSharing] = useState<DeviceRow | null>(null);
  const [definingFields, setDefiningFields] = useState(false);
  // Custom fields (issue 31): their columns in the column settings, one filter (field, value).
  const customFields = useCustomFields();
  const types = useDictionary('deviceType');
  const scenes = useDictionary('scene');
  const deviceFilters = useDeviceFilters(t, {
    stores: can(Perm.userCompany),
    dept: {
      key: 'deptId',
      kind: 'custom',
      label: t('field.dept'),
      hidden: !canPickDept,
      render: () => <DeptPicker allowClear style={{ width: 180 }} placeholder={t('all')} testId="device-filter-dept" />,
    },
  });
  // The licence (issue 27): on trial, licensed or expired now.
  const filters: FilterField<DeviceFilterKey | 'licence' | 'cfKey' | 'cfValue'>[] = [
    ...deviceFilters,
    {
      key: 'licence',
      kind: 'select',
      label: t('field.licence'),
      options: LICENCE_STATES.map((s) => ({ value: s, label: t(`licence.${s}`) })),
      placeholder: t('all'),
      width: 140,
      testId: 'device-filter-licence',
    },
    {
      key: 'cfKey',
      kind: 'select',
      label: t('cf.filter'),
      hidden: customFields.length === 0,
      options: customFields.map((f) => ({ value: f.key, label: f.label })),
      placeholder: t('cf.filterField'),
      width: 140,
      testId: 'device-filter-cf-key',
    },
    {
      key: 'cfValue',
      label: t('cf.filterValue'),
      hidden: customFields.length === 0,
      placeholder: t('cf.filterValueHint'),
      width: 140,
      testId: 'device-filter-cf-value',
    },
  ];

  const disable = useCallMutation('deviceDisable', { success: t('toast.disabled') });
  const enable = useCallMutation('deviceEnable', { success: t('toast.enabled') });
  const remove = useCallMutation('deviceDelete', {
    success: (answer) => t('toast.deleted', { count: answer.deleted }),
    onSuccess: (_answer, { ids }) => setSelected((current) => current.filter((id) => !ids.includes(id))),
  });

  const manage = { authCode: Perm.device, notForMonitor: true };
  const manageable = (row: DeviceRow) => row.canManage;
  const operations: TableOperation<DeviceRow>[] = [
    {
      key: 'detail',
      label: t('detail'),
      authCode: Perm.deviceContext,
      handler: (row) => navigate(`/device/context?id=${encodeURIComponent(row.id)}`),
      testId: (row) => `device-detail-${row.name}`,
    },
    {
      ...manage,
      key: 'edit',
      label: t('edit'),
      isShow: manageable,
      handler: (row) => setEditing(row),
      testId: (row) => `device-edit-${row.name}`,
    },
    {
      ...manage,
      key: 'assignLayout',
      label: t('assign.action', { ns: 'player' }),
      isShow: manageable,
      handler: (row) => setAssigning(row),
      testId: (row) => `device-assign-layout-${row.name}`,
    },
    {
      ...manage,
      key: 'offlinePackage',
      label: t('offline.action', { ns: 'player' }),
      isShow: manageable,
      handler: (row) => setPackaging(row),
      testId: (row) => `device-offline-${row.name}`,
    },
    {
      ...manage,
      key: 'location',
      label: t('location'),
      isShow: manageable,
      handler: (row) => setLocating(row.id),
      testId: (row) => `device-location-${row.name}`,
    },
    {
      key: 'share',
      label: t('share'),
      authCode: Perm.dataAllocation,
      icon: <ShareAltOutlined />,
      isShow: manageable,
      handler: (row) => setSharing(row),
      testId: (row) => `device-share-${row.name}`,
    },
    {
      ...manage,
      key: 'disable',
      label: t('disable'),
      isShow: (row) => row.canManage && row.status !== 'invalid',
      confirm: (row) => ({ title: t('confirm.disable', { name: row.name }) }),
      handler: (row) => disable.mutateAsync({ ids: [row.id] }),
      testId: (row) => `device-disable-${row.name}`,
    },
    {
      ...manage,
      key: 'enable',
      label: t('enable'),
      isShow: (row) => row.canManage && row.status === 'invalid',
      handler: (row) => enable.mutate({ ids: [row.id] }),
      testId: (row) => `device-enable-${row.name}`,
    },
    {
      ...manage,
      key: 'delete',
      label: t('delete'),
      danger: true,
      isShow: manageable,
      confirm: (row) => ({ title: t('confirm.delete', { name: row.name }) }),
      handler: (row) => remove.mutateAsync({ ids: [row.id] }),
      testId: (row) => `device-delete-${row.name}`,
    },
  ];
  const list = useListPage({
    id: 'devices',
    endpoint: 'deviceList',
    filters,
    operationsLabel: t('actions'),
    columns: [...deviceListColumns(t, undefined, types.label, scenes.label), ...customFieldColumns(customFields)],
    operations,
    request: ({ cfKey, cfValue, ...rest }, page) =>
      ({
        ...page,
        ...rest,
        ...(cfKey && cfValue ? { customField: { key: String(cfKey), value: String(cfValue) } } : {}),
      }) as Req<Endpoints['deviceList']>,
    refetchInterval: REFRESH_MS,
  });
  const { page: _page, size: _size, ...exportFilter } = list.request;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: domainKey('devices') });

  const closeAdd = () => {
    setAdding(false);
    if (pairCode) {
      const next = new URLSearchParams(params);
      next.delete('pair');
      setParams(next, { replace: true });
    }
  };

  return (
    <ListPage
      list={list}
      testPrefix="device"
      className="mq-devices"
      title={t('title')}
      extra={
        <Segmented
          value={view}
          onChange={(v) => setView(v as 'table' | 'map')}
          options={[
            { value: 'table', label: t('view.table') },
            { value: 'map', label: t('view.map') },
          ]}
          data-testid="device-view"
        />
      }
      instead={view === 'map' ? <DeviceRegionMap storeId={list.state.filters.storeId} /> : undefined}
      toolbar={
        canManage ? (
          <NotForMonitor>
            <DeviceExportButton filter={exportFilter} />
            <span style={{ marginLeft: 8 }} />
            <DeviceImportButton onImported={refresh} />
            <span style={{ marginLeft: 8 }} />
            <Button onClick={() => setDefiningFields(true)} data-testid="device-custom-fields">
              {t('cf.title')}
            </Button>
            <span style={{ marginLeft: 8 }} />
            {selected.length > 0 ? (
              <Popconfirm
                title={t('confirm.deleteSelected', { count: selected.length })}
                okText={t('delete')}
                cancelText={t('dialog.cancel')}
                okButtonProps={confirmOkProps(true)}
                onConfirm={() => remove.mutateAsync({ ids: selected }).catch(() => undefined)}
              >
                <Button danger icon={<DeleteOutlined />} data-testid="device-delete-selected">
                  {t('deleteSelected')} ({selected.length})
                </Button>
              </Popconfirm>
            ) : null}
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setAdding(true)}
              data-testid="device-add"
              style={{ marginLeft: 8 }}
            >
              {t('add')}
            </Button>
          </NotForMonitor>
        ) : null
      }
      rowSelection={
        canManage
          ? {
              selectedRowKeys: selected,
              preserveSelectedRowKeys: true,
              onChange: (keys) => setSelected(keys.map(String)),
              getCheckboxProps: (row) =>
                ({
                  disabled: !row.canManage,
                  'aria-label': row.name,
                  'data-testid': `device-select-${row.name}`,
                }) as object,
            }
          : undefined
      }
      rowTestId={(row) => `device-row-${row.name}`}
      empty={list.filtered ? t('emptyFiltered') : t('empty')}
      showTotal={(total, capped) => t(capped ? 'totalCapped' : 'total', { count: total })}
    >
      <AddDeviceDialog open={adding} initialCode={pairCode} onClose={closeAdd} />
      <EditDeviceDialog device={editing} onClose={() => setEditing(null)} />
      <CustomFieldsDialog open={definingFields} onClose={() => setDefiningFields(false)} />
      <AssignLayoutDialog device={assigning} onClose={() => setAssigning(null)} />
      <OfflinePackageDialog device={packaging} onClose={() => setPackaging(null)} />
      <DeviceLocationDialog deviceId={locating} onClose={() => setLocating(null)} />
      <PermissionDialog
        open={sharing !== null}
        refType={RefType.device}
        refIds={sharing ? [sharing.id] : []}
        names={sharing ? [sharing.name] : []}
        onClose={() => setSharing(null)}
        onDone={refresh}
      />
    </ListPage>
  );
}
