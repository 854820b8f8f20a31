import { UserAddOutlined, UserDeleteOutlined } from '@ant-design/icons';
import type { Advertiser } from '@marquee/protocol';
import { Button, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { enabledLook, tagColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { NotForMonitor } from '../../components/MonitorGuard';

/**
 * Advertiser allocation (/user/allot): advertisers with the operators and staff assigned to
 * them; select advertisers and staff, then assign or unassign. A staff member whose data
 * scope is 'self' sees exactly the advertisers assigned here on /user/adv.
 */
export default function AllotPage() {
  const { t } = useTranslation(['advertisers', 'common']);
  const [selected, setSelected] = useState<string[]>([]);
  const [staffIds, setStaffIds] = useState<string[]>([]);

  const staff = useCallQuery('advertiserStaffOptions', {}, { staleTime: 60_000 });
  const changed = { onSuccess: () => setSelected([]) };
  const assign = useCallMutation('advertiserAssign', { ...changed, success: t('toast.assigned') });
  const unassign = useCallMutation('advertiserUnassign', { ...changed, success: t('toast.unassigned') });
  const ready = selected.length > 0 && staffIds.length > 0;
  const body = { advertiserIds: selected, staffIds };

  const list = useListPage({
    id: 'advertiserAllot',
    endpoint: 'advertiserAllotList',
    filters: [
      { key: 'loginName', label: t('field.loginName'), testId: 'allot-filter-login' },
      {
        key: 'staffId',
        kind: 'select',
        label: t('allot.staffFilter'),
        width: 220,
        showSearch: true,
        placeholder: t('all'),
        options: staff.data ?? [],
        testId: 'allot-filter-staff',
      },
    ],
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
      tagColumn<Advertiser>('status', t('field.status'), enabledLook(t)),
    ],
  });

  return (
    <ListPage
      list={list}
      testPrefix="allot"
      className="mq-allot"
      title={t('allot.title')}
      toolbar={
        <NotForMonitor>
          <Space wrap>
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
              loading={assign.isPending}
              onClick={() => assign.mutate(body)}
              data-testid="allot-assign"
            >
              {t('allot.assign')}
            </Button>
            <Button
              icon={<UserDeleteOutlined />}
              disabled={!ready}
              loading={unassign.isPending}
              onClick={() => unassign.mutate(body)}
              data-testid="allot-unassign"
            >
              {t('allot.unassign')}
            </Button>
          </Space>
        </NotForMonitor>
      }
      rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }}
      rowTestId={(row) => `allot-row-${row.loginName}`}
      empty={t('empty')}
      showTotal={(total) => t('total', { count: total })}
    />
  );
}
