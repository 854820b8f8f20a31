import { UserAddOutlined, UserDeleteOutlined } from '@ant-design/icons';
import type { Advertiser } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { enabledLook, tagColumn } from '../../components/columns';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { NotForMonitor } from '../../components/MonitorGuard';
import type { TableConfig } from '../../components/tableConfig';

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
  const listState = useUrlListState(FILTER_KEYS);
  const { page, size, filters } = listState;
  const [selected, setSelected] = useState<string[]>([]);
  const [staffIds, setStaffIds] = useState<string[]>([]);

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

  const config: TableConfig<Advertiser> = {
    id: 'advertiserAllot',
    columns: [
      { prop: 'loginName', label: t('field.loginName'), width: 170, ellipsis: true },
      { prop: 'realName', label: t('field.realName'), width: 200, ellipsis: true },
      { prop: 'deptName', label: t('field.dept'), width: 150, ellipsis: true },
      {
        prop: 'staff',
        label: t('field.staff'),
        width: 320,
        slot: (list: Advertiser['staff']) =>
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
      tagColumn('status', t('field.status'), enabledLook(t)),
    ],
  };
  return (
    <div className="mq-view mq-allot" data-testid="allot-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <FilterBar
          values={filters}
          onSearch={listState.applyFilters}
          onReset={listState.clearFilters}
          testIds={{ search: 'allot-search' }}
        >
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
        </FilterBar>
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
              aria-label={t('allot.staffPlaceholder')}
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
        <ListTable
          config={config}
          query={list}
          state={listState}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }}
          rowTestId={(row) => `allot-row-${row.loginName}`}
          empty={t('empty')}
          showTotal={(total) => t('total', { count: total })}
        />
      </Card>
    </div>
  );
}
