import { DeleteOutlined, PlusOutlined, ShareAltOutlined } from '@ant-design/icons';
import {
  DEVICE_SORT_KEYS,
  DEVICE_STATUSES,
  DEVICE_TYPES,
  type DeviceRow,
  type DeviceStatusValue,
  type DeviceTypeValue,
  Perm,
  RefType,
} from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Form, Input, Popconfirm, Segmented, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { confirmOkProps } from '../../components/ConfirmAction';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { NotForMonitor } from '../../components/MonitorGuard';
import { PermissionDialog } from '../../components/permission-dialog/PermissionDialog';
import type { TableConfig, TableOperation } from '../../components/tableConfig';
import { useCan } from '../../session/useCan';
import { DeptPicker, useCanPickDept } from '../accounts/AccountFields';
import { useGroupOptions, useTagOptions } from '../deviceGroups/pickers';
import { DeviceExportButton, DeviceImportButton } from '../deviceIo';
import { DeviceLocationDialog, DeviceRegionMap } from '../geo';
import { AssignLayoutDialog } from './AssignLayoutDialog';
import { AddDeviceDialog, DEVICES_KEY, EditDeviceDialog } from './DeviceDialogs';
import { deviceListColumns } from './deviceColumns';

/** The list's filters in the URL (device.list's request fields). */
export const DEVICE_FILTER_KEYS = [
  'keyword',
  'status',
  'deptId',
  'type',
  'expireBefore',
  'playerVersion',
  'groupId',
  'tagId',
  'storeId',
] as const;

/** How often the list refreshes itself (statuses change as screens come and go). */
const REFRESH_MS = 15_000;

interface FilterValues {
  keyword?: string;
  status?: string;
  deptId?: string;
  type?: string;
  expireBefore?: Dayjs | string | null;
  playerVersion?: string;
  groupId?: string;
  tagId?: string;
  storeId?: string;
}

/**
 * Devices (/device, spec sections 2 to 4): the screens of the caller's data scope on the table
 * config (columns from deviceListColumns, the user's column choice, server-side sorting), with
 * filters in the URL, add by pairing code or device number (the player's QR link `?pair=CODE`
 * opens the dialog with its code), edit, details, disable/enable and delete (one or a
 * selection, confirmed). The list refreshes itself so statuses follow the fleet.
 */
export default function DeviceListPage() {
  const { t } = useTranslation(['devices', 'common', 'player']);
  const canPickDept = useCanPickDept();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const can = useCan();
  const [params, setParams] = useSearchParams();
  const listState = useUrlListState(DEVICE_FILTER_KEYS, { sortKeys: DEVICE_SORT_KEYS });
  const { filters, pageRequest } = listState;
  const pairCode = params.get('pair') ?? undefined;
  const [adding, setAdding] = useState(Boolean(pairCode));
  const [editing, setEditing] = useState<DeviceRow | null>(null);
  const [assigning, setAssigning] = useState<DeviceRow | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const canManage = can(Perm.device);
  const [view, setView] = useState<'table' | 'map'>('table');
  const [locating, setLocating] = useState<string | null>(null);
  const [sharing, setSharing] = useState<DeviceRow | null>(null);
  const groups = useGroupOptions();
  const tags = useTagOptions();
  const stores = useQuery({
    queryKey: ['stores', 'options'],
    queryFn: () => call('storeList', { page: 1, size: 500 }),
    enabled: can(Perm.userCompany),
  });

  const request = {
    ...pageRequest,
    keyword: filters.keyword,
    status: filters.status as DeviceStatusValue | undefined,
    deptId: filters.deptId,
    type: filters.type as DeviceTypeValue | undefined,
    expireBefore: filters.expireBefore,
    playerVersion: filters.playerVersion,
    groupId: filters.groupId,
    tagId: filters.tagId,
    storeId: filters.storeId,
  };
  const { page: _page, size: _size, ...exportFilter } = request;
  const list = useQuery({
    queryKey: [DEVICES_KEY, 'list', request],
    queryFn: ({ signal }) => call('deviceList', request, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });

  const done = (text: string) => {
    void message.success(text);
    void queryClient.invalidateQueries({ queryKey: [DEVICES_KEY] });
  };
  const disable = useMutation({
    mutationFn: (id: string) => call('deviceDisable', { ids: [id] }),
    onSuccess: () => done(t('toast.disabled')),
  });
  const enable = useMutation({
    mutationFn: (id: string) => call('deviceEnable', { ids: [id] }),
    onSuccess: () => done(t('toast.enabled')),
  });
  const remove = useMutation({
    mutationFn: (ids: string[]) => call('deviceDelete', { ids }),
    onSuccess: (answer, ids) => {
      setSelected((current) => current.filter((id) => !ids.includes(id)));
      done(t('toast.deleted', { count: answer.deleted }));
    },
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
      handler: (row) => disable.mutateAsync(row.id),
      testId: (row) => `device-disable-${row.name}`,
    },
    {
      ...manage,
      key: 'enable',
      label: t('enable'),
      isShow: (row) => row.canManage && row.status === 'invalid',
      handler: (row) => enable.mutate(row.id),
      testId: (row) => `device-enable-${row.name}`,
    },
    {
      ...manage,
      key: 'delete',
      label: t('delete'),
      danger: true,
      isShow: manageable,
      confirm: (row) => ({ title: t('confirm.delete', { name: row.name }) }),
      handler: (row) => remove.mutateAsync([row.id]),
      testId: (row) => `device-delete-${row.name}`,
    },
  ];
  const config: TableConfig<DeviceRow> = {
    id: 'devices',
    operationsLabel: t('actions'),
    columns: deviceListColumns(t),
    operations,
  };

  // The filter form holds a date for `expireBefore`; the URL an ISO time.
  const filterValues = useMemo<FilterValues>(
    () => ({ ...filters, expireBefore: filters.expireBefore ? dayjs(filters.expireBefore) : null }),
    [filters],
  );
  const search = (v: FilterValues) =>
    listState.applyFilters({
      ...v,
      expireBefore: dayjs.isDayjs(v.expireBefore) ? v.expireBefore.toDate().toISOString() : undefined,
    } as Record<(typeof DEVICE_FILTER_KEYS)[number], string | undefined>);
  const filtered = DEVICE_FILTER_KEYS.some((k) => filters[k]);

  const closeAdd = () => {
    setAdding(false);
    if (pairCode) {
      const next = new URLSearchParams(params);
      next.delete('pair');
      setParams(next, { replace: true });
    }
  };

  return (
    <div className="mq-view mq-devices" data-testid="device-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <FilterBar
          values={filterValues}
          onSearch={search}
          onReset={listState.clearFilters}
          testIds={{ search: 'device-search', reset: 'device-reset' }}
        >
          <Form.Item name="keyword" label={t('field.keyword')}>
            <Input allowClear placeholder={t('field.keywordHint')} data-testid="device-filter-keyword" />
          </Form.Item>
          <Form.Item name="status" label={t('field.status')}>
            <Select
              allowClear
              style={{ width: 140 }}
              placeholder={t('all')}
              options={DEVICE_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
              data-testid="device-filter-status"
            />
          </Form.Item>
          {canPickDept ? (
            <Form.Item name="deptId" label={t('field.dept')}>
              <DeptPicker allowClear style={{ width: 180 }} placeholder={t('all')} testId="device-filter-dept" />
            </Form.Item>
          ) : null}
          <Form.Item name="type" label={t('field.type')}>
            <Select
              allowClear
              style={{ width: 140 }}
              placeholder={t('all')}
              options={DEVICE_TYPES.map((type) => ({ value: type, label: t(`type.${type}`) }))}
              data-testid="device-filter-type"
            />
          </Form.Item>
          <Form.Item name="playerVersion" label={t('field.playerVersion')}>
            <Input allowClear style={{ width: 140 }} data-testid="device-filter-version" />
          </Form.Item>
          <Form.Item name="expireBefore" label={t('field.expireBefore')}>
            <DatePicker data-testid="device-filter-expire" />
          </Form.Item>
          <Form.Item name="groupId" label={t('field.group')}>
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              style={{ width: 160 }}
              placeholder={t('all')}
              loading={groups.isLoading}
              options={groups.data}
              data-testid="device-filter-group"
            />
          </Form.Item>
          <Form.Item name="tagId" label={t('field.tags')}>
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              style={{ width: 160 }}
              placeholder={t('all')}
              loading={tags.isLoading}
              options={tags.data}
              data-testid="device-filter-tag"
            />
          </Form.Item>
          {can(Perm.userCompany) ? (
            <Form.Item name="storeId" label={t('field.store')}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                style={{ width: 160 }}
                placeholder={t('all')}
                loading={stores.isLoading}
                options={stores.data?.data.map((store) => ({ value: store.id, label: store.name }))}
                data-testid="device-filter-store"
              />
            </Form.Item>
          ) : null}
        </FilterBar>
      </Card>
      <Card
        size="small"
        className="mq-list-card"
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
      >
        {view === 'map' ? (
          <DeviceRegionMap storeId={filters.storeId} />
        ) : (
          <ListTable
            config={config}
            query={list}
            state={listState}
            toolbar={
              canManage ? (
                <NotForMonitor>
                  <DeviceExportButton filter={exportFilter} />
                  <span style={{ marginLeft: 8 }} />
                  <DeviceImportButton
                    onImported={() => void queryClient.invalidateQueries({ queryKey: [DEVICES_KEY] })}
                  />
                  <span style={{ marginLeft: 8 }} />
                  {selected.length > 0 ? (
                    <Popconfirm
                      title={t('confirm.deleteSelected', { count: selected.length })}
                      okText={t('delete')}
                      cancelText={t('dialog.cancel')}
                      okButtonProps={confirmOkProps(true)}
                      onConfirm={() => remove.mutateAsync(selected).catch(() => undefined)}
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
            empty={filtered ? t('emptyFiltered') : t('empty')}
            showTotal={(total, capped) => t(capped ? 'totalCapped' : 'total', { count: total })}
          />
        )}
      </Card>
      <AddDeviceDialog open={adding} initialCode={pairCode} onClose={closeAdd} />
      <EditDeviceDialog device={editing} onClose={() => setEditing(null)} />
      <AssignLayoutDialog device={assigning} onClose={() => setAssigning(null)} />
      <DeviceLocationDialog deviceId={locating} onClose={() => setLocating(null)} />
      <PermissionDialog
        open={sharing !== null}
        refType={RefType.device}
        refIds={sharing ? [sharing.id] : []}
        names={sharing ? [sharing.name] : []}
        onClose={() => setSharing(null)}
        onDone={() => void queryClient.invalidateQueries({ queryKey: [DEVICES_KEY] })}
      />
    </div>
  );
}
