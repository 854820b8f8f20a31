import { ReloadOutlined, SearchOutlined, UserAddOutlined, UserDeleteOutlined } from '@ant-design/icons';
import type { Advertiser } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Form, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { listPagination, useUrlListState } from '../../components/listState';
import { NotForMonitor } from '../../components/MonitorGuard';
import { trimAll } from './AdvertiserPage';

const FILTER_KEYS = ['loginName', 'staffId'] as const;

/**
 * Advertiser allocation (/user/allot): advertisers with the operators and staff assigned to
 * them; select advertisers and staff, then assign or unassign. A staff member whose data
 * scope is 'self' sees exactly the advertisers assigned here on /user/adv.
 */
export default function AllotPage() {
  const { t } = useTranslation(['advertisers', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { page, size, filters, update } = useUrlListState(FILTER_KEYS);
  const [form] = Form.useForm<{ loginName?: string; staffId?: string }>();
  const [selected, setSelected] = useState<string[]>([]);
  const [staffIds, setStaffIds] = useState<string[]>([]);

  useEffect(() => form.setFieldsValue(filters), [filters, form]);

  const list = useQuery({
    queryKey: ['advertisers', 'allot', page, size, filters],
    queryFn: ({ signal }) => call('advertiserAllotList', { page, size, ...filters }, { signal }),
    placeholderData: keepPreviousData,
  });
  const staff = useQuery({
    queryKey: ['advertisers', 'staff'],
    queryFn: () => call('advertiserStaffOptions', {}),
    staleTime: 60_000,
  });

  const change = useMutation({
    mutationFn: async (kind: 'assign' | 'unassign') => {
      const body = { advertiserIds: selected, staffIds };
      return kind === 'assign' ? call('advertiserAssign', body) : call('advertiserUnassign', body);
    },
    onSuccess: (_r, kind) => {
      void message.success(t(kind === 'assign' ? 'toast.assigned' : 'toast.unassigned'));
      setSelected([]);
      void queryClient.invalidateQueries({ queryKey: ['advertisers'] });
    },
  });
  const ready = selected.length > 0 && staffIds.length > 0;

  const columns: ColumnsType<Advertiser> = [
    { title: t('field.loginName'), dataIndex: 'loginName', width: 170 },
    { title: t('field.realName'), dataIndex: 'realName', width: 200, ellipsis: true },
    { title: t('field.dept'), dataIndex: 'deptName', width: 150, render: (v: string) => v || '-' },
    {
      title: t('field.staff'),
      dataIndex: 'staff',
      render: (list: Advertiser['staff']) =>
        list.length ? (
          list.map((s) => (
            <Tag key={s.id} color="blue">
              {s.realName ? `${s.realName} (${s.loginName})` : s.loginName}
            </Tag>
          ))
        ) : (
          <Typography.Text type="secondary">{t('allot.none')}</Typography.Text>
        ),
    },
    {
      title: t('field.status'),
      dataIndex: 'status',
      width: 100,
      render: (v: Advertiser['status']) => (
        <Tag color={v === 'enabled' ? 'success' : 'default'}>{t(`status.${v}`)}</Tag>
      ),
    },
  ];

  return (
    <div className="mq-view mq-allot" data-testid="allot-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <Form form={form} layout="inline" onFinish={(v) => update({ page: 1, filters: trimAll(v) })}>
          <Form.Item name="loginName" label={t('field.loginName')}>
            <Input allowClear data-testid="allot-filter-login" />
          </Form.Item>
          <Form.Item name="staffId" label={t('allot.staffFilter')}>
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              style={{ width: 220 }}
              placeholder={t('all')}
              options={staff.data ?? []}
              data-testid="allot-filter-staff"
            />
          </Form.Item>
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="allot-search">
                {t('search')}
              </Button>
              <Button
                icon={<ReloadOutlined />}
                onClick={() => {
                  form.resetFields();
                  update({ page: 1, filters: {} });
                }}
              >
                {t('reset')}
              </Button>
            </Space>
          </Form.Item>
        </Form>
      </Card>
      <Card size="small" className="mq-list-card" title={t('allot.title')}>
        <NotForMonitor>
          <Space wrap style={{ marginBottom: 12 }}>
            <Typography.Text>{t('allot.selected', { count: selected.length })}</Typography.Text>
            <Select
              mode="multiple"
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              style={{ minWidth: 320 }}
              placeholder={t('allot.staffPlaceholder')}
              options={staff.data ?? []}
              value={staffIds}
              onChange={setStaffIds}
              maxTagCount="responsive"
              data-testid="allot-staff-select"
            />
            <Button
              type="primary"
              icon={<UserAddOutlined />}
              disabled={!ready}
              loading={change.isPending && change.variables === 'assign'}
              onClick={() => change.mutate('assign')}
              data-testid="allot-assign"
            >
              {t('allot.assign')}
            </Button>
            <Button
              icon={<UserDeleteOutlined />}
              disabled={!ready}
              loading={change.isPending && change.variables === 'unassign'}
              onClick={() => change.mutate('unassign')}
              data-testid="allot-unassign"
            >
              {t('allot.unassign')}
            </Button>
          </Space>
        </NotForMonitor>
        <Table<Advertiser>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={list.data?.data ?? []}
          loading={list.isFetching}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }}
          onRow={(row) => ({ 'data-testid': `allot-row-${row.loginName}` }) as React.HTMLAttributes<HTMLElement>}
          locale={{ emptyText: <Empty description={t('empty')} /> }}
          scroll={{ x: 900 }}
          pagination={listPagination({ page, size, update }, list.data?.total ?? 0, (total) => t('total', { total }))}
        />
      </Card>
    </div>
  );
}
