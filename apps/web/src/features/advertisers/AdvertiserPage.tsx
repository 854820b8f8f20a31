import { PlusOutlined } from '@ant-design/icons';
import { type Advertiser, formatTime, Perm } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Popconfirm, Select, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { NotForMonitor } from '../../components/MonitorGuard';
import { useCan } from '../../shell/useCan';
import { AdvertiserDialog } from './AdvertiserDialog';

const FILTER_KEYS = ['loginName', 'realName', 'phone', 'status'] as const;

/**
 * Advertiser users (/user/adv): advertiser accounts of the caller's enterprise within the
 * caller's data scope (plus those assigned to them), with add, edit, enable/pause and delete.
 */
export default function AdvertiserPage() {
  const { t } = useTranslation(['advertisers', 'common']);
  const { message } = App.useApp();
  const can = useCan();
  const queryClient = useQueryClient();
  const listState = useUrlListState(FILTER_KEYS);
  const { page, size, filters } = listState;
  const [dialog, setDialog] = useState<{ open: boolean; editing: Advertiser | null }>({ open: false, editing: null });

  const list = useQuery({
    queryKey: ['advertisers', 'list', page, size, filters],
    queryFn: ({ signal }) =>
      call(
        'advertiserList',
        { page, size, ...filters, status: filters.status as 'enabled' | 'paused' | undefined },
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

  const columns: ColumnsType<Advertiser> = [
    { title: t('field.loginName'), dataIndex: 'loginName', width: 150, fixed: 'left' },
    { title: t('field.realName'), dataIndex: 'realName', width: 160, ellipsis: true },
    { title: t('field.phone'), dataIndex: 'phone', width: 130, render: (v: string | null) => v || '-' },
    { title: t('field.email'), dataIndex: 'email', width: 170, ellipsis: true, render: (v: string | null) => v || '-' },
    { title: t('field.dept'), dataIndex: 'deptName', width: 120, render: (v: string) => v || '-' },
    {
      title: t('field.staff'),
      dataIndex: 'staff',
      width: 180,
      render: (staff: Advertiser['staff']) =>
        staff.length ? staff.map((s) => <Tag key={s.id}>{s.realName || s.loginName}</Tag>) : '-',
    },
    {
      title: t('field.status'),
      dataIndex: 'status',
      width: 90,
      render: (v: Advertiser['status']) => (
        <Tag color={v === 'enabled' ? 'success' : 'default'}>{t(`status.${v}`)}</Tag>
      ),
    },
    {
      title: t('field.createdAt'),
      dataIndex: 'createdAt',
      width: 160,
      render: (v: string) => formatTime(v),
    },
    ...(can(Perm.userAdv)
      ? [
          {
            title: t('actions'),
            key: 'actions',
            width: 190,
            fixed: 'right' as const,
            render: (_: unknown, row: Advertiser) => (
              <NotForMonitor>
                <Space size={4}>
                  <Button
                    type="link"
                    size="small"
                    onClick={() => setDialog({ open: true, editing: row })}
                    data-testid={`adv-edit-${row.loginName}`}
                  >
                    {t('edit')}
                  </Button>
                  {row.status === 'enabled' ? (
                    <Popconfirm
                      title={t('confirm.pause', { name: row.loginName })}
                      onConfirm={() => setStatus.mutateAsync({ id: row.id, status: 'paused' })}
                      okButtonProps={{ 'data-testid': 'adv-pause-confirm' } as Record<string, string>}
                    >
                      <Button type="link" size="small" data-testid={`adv-pause-${row.loginName}`}>
                        {t('pause')}
                      </Button>
                    </Popconfirm>
                  ) : (
                    <Button
                      type="link"
                      size="small"
                      onClick={() => setStatus.mutate({ id: row.id, status: 'enabled' })}
                      data-testid={`adv-enable-${row.loginName}`}
                    >
                      {t('enable')}
                    </Button>
                  )}
                  <Popconfirm
                    title={t('confirm.delete', { name: row.loginName })}
                    okType="danger"
                    onConfirm={() => remove.mutateAsync(row.id)}
                    okButtonProps={{ 'data-testid': 'adv-delete-confirm' } as Record<string, string>}
                  >
                    <Button type="link" size="small" danger data-testid={`adv-delete-${row.loginName}`}>
                      {t('delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              </NotForMonitor>
            ),
          },
        ]
      : []),
  ];

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
      <Card
        size="small"
        className="mq-list-card"
        title={t('title')}
        extra={
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
      >
        <ListTable
          query={list}
          state={listState}
          columns={columns}
          rowTestId={(row) => `adv-row-${row.loginName}`}
          empty={t('empty')}
          scroll={{ x: 1350 }}
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
