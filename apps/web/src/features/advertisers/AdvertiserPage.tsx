import { PlusOutlined } from '@ant-design/icons';
import { ADVERTISER_SORT_KEYS, type Advertiser, Perm } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { enabledLook, tagColumn, timeColumn } from '../../components/columns';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { NotForMonitor } from '../../components/MonitorGuard';
import type { TableConfig } from '../../components/tableConfig';
import { AdvertiserDialog } from './AdvertiserDialog';

const FILTER_KEYS = ['loginName', 'realName', 'phone', 'status'] as const;

/**
 * Advertiser users (/user/adv): advertiser accounts of the caller's enterprise within the
 * caller's data scope (plus those assigned to them), with add, edit, enable/pause and delete.
 */
export default function AdvertiserPage() {
  const { t } = useTranslation(['advertisers', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const listState = useUrlListState(FILTER_KEYS, { sortKeys: ADVERTISER_SORT_KEYS });
  const { filters, pageRequest } = listState;
  const [dialog, setDialog] = useState<{ open: boolean; editing: Advertiser | null }>({ open: false, editing: null });

  const list = useQuery({
    queryKey: ['advertisers', 'list', pageRequest, filters],
    queryFn: ({ signal }) =>
      call(
        'advertiserList',
        { ...pageRequest, ...filters, status: filters.status as 'enabled' | 'paused' | undefined },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

  const done = (key: string) => {
    void message.success(t(key));
    void queryClient.invalidateQueries({ queryKey: ['advertisers'] });
  };
  const setStatus = useMutation({
    mutationFn: (v: { id: string; status: 'enabled' | 'paused' }) => call('advertiserSetStatus', v),
    onSuccess: (_r, v) => done(v.status === 'paused' ? 'toast.paused' : 'toast.enabled'),
  });
  const remove = useMutation({
    mutationFn: (id: string) => call('advertiserDelete', { id }),
    onSuccess: () => done('toast.deleted'),
  });

  const manage = { authCode: Perm.userAdv, notForMonitor: true };
  const config: TableConfig<Advertiser> = {
    id: 'advertisers',
    operationsLabel: t('actions'),
    columns: [
      { prop: 'loginName', label: t('field.loginName'), width: 150, ellipsis: true, sortable: true },
      { prop: 'realName', label: t('field.realName'), width: 160, ellipsis: true, sortable: true },
      { prop: 'phone', label: t('field.phone'), width: 130 },
      { prop: 'email', label: t('field.email'), width: 180, ellipsis: true },
      { prop: 'deptName', label: t('field.dept'), width: 130, ellipsis: true },
      {
        prop: 'staff',
        label: t('field.staff'),
        width: 180,
        slot: (staff: Advertiser['staff']) =>
          staff.length ? staff.map((s) => <Tag key={s.id}>{s.realName || s.loginName}</Tag>) : '-',
      },
      tagColumn('status', t('field.status'), enabledLook(t)),
      timeColumn('createdAt', t('field.createdAt'), { sortable: true }),
    ],
    operations: [
      {
        ...manage,
        key: 'edit',
        label: t('edit'),
        handler: (row) => setDialog({ open: true, editing: row }),
        testId: (row) => `adv-edit-${row.loginName}`,
      },
      {
        ...manage,
        key: 'pause',
        label: t('pause'),
        isShow: (row) => row.status === 'enabled',
        confirm: (row) => ({ title: t('confirm.pause', { name: row.loginName }) }),
        handler: (row) => setStatus.mutateAsync({ id: row.id, status: 'paused' }),
        testId: (row) => `adv-pause-${row.loginName}`,
      },
      {
        ...manage,
        key: 'enable',
        label: t('enable'),
        isShow: (row) => row.status === 'paused',
        handler: (row) => setStatus.mutate({ id: row.id, status: 'enabled' }),
        testId: (row) => `adv-enable-${row.loginName}`,
      },
      {
        ...manage,
        key: 'delete',
        label: t('delete'),
        danger: true,
        confirm: (row) => ({ title: t('confirm.delete', { name: row.loginName }) }),
        handler: (row) => remove.mutateAsync(row.id),
        testId: (row) => `adv-delete-${row.loginName}`,
      },
    ],
  };
  return (
    <div className="mq-view mq-advertisers" data-testid="adv-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <FilterBar
          values={filters}
          onSearch={listState.applyFilters}
          onReset={listState.clearFilters}
          testIds={{ search: 'adv-search', reset: 'adv-reset' }}
        >
          <Form.Item name="loginName" label={t('field.loginName')}>
            <Input allowClear data-testid="adv-filter-login" />
          </Form.Item>
          <Form.Item name="realName" label={t('field.realName')}>
            <Input allowClear data-testid="adv-filter-name" />
          </Form.Item>
          <Form.Item name="phone" label={t('field.phone')}>
            <Input allowClear data-testid="adv-filter-phone" />
          </Form.Item>
          <Form.Item name="status" label={t('field.status')}>
            <Select
              allowClear
              style={{ width: 120 }}
              placeholder={t('all')}
              options={[
                { value: 'enabled', label: t('status.enabled') },
                { value: 'paused', label: t('status.paused') },
              ]}
              data-testid="adv-filter-status"
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
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setDialog({ open: true, editing: null })}
                data-testid="adv-add"
              >
                {t('add')}
              </Button>
            </NotForMonitor>
          }
          rowTestId={(row) => `adv-row-${row.loginName}`}
          empty={t('empty')}
          showTotal={(total) => t('total', { count: total })}
        />
      </Card>
      <AdvertiserDialog
        open={dialog.open}
        editing={dialog.editing}
        onClose={() => setDialog({ open: false, editing: dialog.editing })}
      />
    </div>
  );
}
