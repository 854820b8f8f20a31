import { PlusOutlined } from '@ant-design/icons';
import { ENTERPRISE_SORT_KEYS, type EnterpriseRow, formatTime, Perm } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Descriptions, Drawer, Form, Input, Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { enabledLook, tagColumn, timeColumn } from '../../components/columns';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import type { TableConfig } from '../../components/tableConfig';
import { invalidateOrg, ORG_KEY } from '../dept/queries';
import { EnterpriseDialog } from './EnterpriseDialog';

const FILTER_KEYS = ['entName', 'entCode', 'entKind', 'entStatus'] as const;

/** Descriptions of one enterprise (the list's detail drawer and the own-enterprise card). */
export function EnterpriseDescriptions({ ent, column = 3 }: { ent: EnterpriseRow; column?: number }) {
  const { t } = useTranslation('accounts');
  return (
    <Descriptions size="small" column={column} data-testid="company-info">
      <Descriptions.Item label={t('field.companyName')}>{ent.name}</Descriptions.Item>
      <Descriptions.Item label={t('field.kind')}>{t(`kind.${ent.kind}`)}</Descriptions.Item>
      <Descriptions.Item label={t('field.socialCreditCode')}>{ent.socialCreditCode || '-'}</Descriptions.Item>
      <Descriptions.Item label={t('field.contact')}>{ent.contact || '-'}</Descriptions.Item>
      <Descriptions.Item label={t('field.phone')}>{ent.phone || '-'}</Descriptions.Item>
      <Descriptions.Item label={t('field.accountType')}>{t(`accountType.${ent.accountType}`)}</Descriptions.Item>
      <Descriptions.Item label={t('field.admin')}>{ent.adminLoginName ?? '-'}</Descriptions.Item>
      <Descriptions.Item label={t('field.accountCount')}>{ent.accountCount}</Descriptions.Item>
      <Descriptions.Item label={t('field.status')}>
        <Tag color={ent.status === 'enabled' ? 'success' : 'default'}>{t(`status.${ent.status}`)}</Tag>
      </Descriptions.Item>
      {ent.parentName ? <Descriptions.Item label={t('field.parent')}>{ent.parentName}</Descriptions.Item> : null}
      <Descriptions.Item label={t('field.createdAt')}>{formatTime(ent.createdAt)}</Descriptions.Item>
    </Descriptions>
  );
}

/**
 * The companies and agent companies the platform operator (or an agent) manages: filters in
 * the URL, add and edit dialogs, pause and enable with confirmation, a detail drawer.
 */
export function EnterpriseList({ allowAgent }: { allowAgent: boolean }) {
  const { t } = useTranslation(['accounts', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const listState = useUrlListState(FILTER_KEYS, { sortKeys: ENTERPRISE_SORT_KEYS });
  const { filters, pageRequest } = listState;
  const [dialog, setDialog] = useState<{ open: boolean; editing: EnterpriseRow | null }>({
    open: false,
    editing: null,
  });
  const [viewing, setViewing] = useState<EnterpriseRow | null>(null);

  const list = useQuery({
    queryKey: [ORG_KEY, 'enterprises', pageRequest, filters],
    queryFn: ({ signal }) =>
      call(
        'enterpriseList',
        {
          ...pageRequest,
          name: filters.entName,
          socialCreditCode: filters.entCode,
          kind: filters.entKind as 'enterprise' | 'agent' | undefined,
          status: filters.entStatus as 'enabled' | 'paused' | undefined,
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

  const setStatus = useMutation({
    mutationFn: (v: { id: string; status: 'enabled' | 'paused' }) => call('enterpriseSetStatus', v),
    onSuccess: (_r, v) => {
      void message.success(t(v.status === 'paused' ? 'toast.paused' : 'toast.enabled'));
      void invalidateOrg(queryClient);
    },
  });

  const config: TableConfig<EnterpriseRow> = {
    id: 'enterprises',
    columns: [
      {
        prop: 'name',
        label: t('field.companyName'),
        width: 220,
        ellipsis: true,
        sortable: true,
        slot: (name: string, row) => (
          <Typography.Link onClick={() => setViewing(row)} title={name} data-testid={`company-view-${row.name}`}>
            {name}
          </Typography.Link>
        ),
      },
      {
        prop: 'kind',
        label: t('field.kind'),
        width: 130,
        slot: (v: string) => <Tag color={v === 'agent' ? 'purple' : 'blue'}>{t(`kind.${v}`)}</Tag>,
      },
      { prop: 'socialCreditCode', label: t('field.socialCreditCode'), width: 190 },
      { prop: 'contact', label: t('field.contact'), width: 120, ellipsis: true },
      { prop: 'phone', label: t('field.phone'), width: 140 },
      {
        prop: 'accountType',
        label: t('field.accountType'),
        width: 120,
        slot: (v: string) => t(`accountType.${v}`),
      },
      { prop: 'adminLoginName', label: t('field.admin'), width: 140, ellipsis: true },
      { prop: 'accountCount', label: t('field.accountCount'), width: 110, sortable: true, showThousands: true },
      tagColumn('status', t('field.status'), enabledLook(t)),
      timeColumn('createdAt', t('field.createdAt'), { sortable: true }),
    ],
    operations: [
      {
        key: 'edit',
        label: t('action.edit'),
        authCode: Perm.userCompany,
        handler: (row) => setDialog({ open: true, editing: row }),
        testId: (row) => `company-edit-${row.name}`,
      },
      {
        key: 'pause',
        label: t('action.pause'),
        authCode: Perm.userCompanyManage,
        isShow: (row) => row.status === 'enabled',
        danger: true,
        confirm: (row) => ({
          title: t('enterprise.pauseConfirm', { name: row.name }),
          description: t('enterprise.pauseHint'),
        }),
        handler: (row) => setStatus.mutateAsync({ id: row.id, status: 'paused' }),
        testId: (row) => `company-pause-${row.name}`,
      },
      {
        key: 'enable',
        label: t('action.enable'),
        authCode: Perm.userCompanyManage,
        isShow: (row) => row.status === 'paused',
        confirm: (row) => ({ title: t('enterprise.enableConfirm', { name: row.name }) }),
        handler: (row) => setStatus.mutateAsync({ id: row.id, status: 'enabled' }),
        testId: (row) => `company-enable-${row.name}`,
      },
    ],
  };

  return (
    <div data-testid="company-list">
      <FilterBar
        values={filters}
        onSearch={listState.applyFilters}
        onReset={listState.clearFilters}
        testIds={{ search: 'company-search' }}
        className="mq-org-filters"
      >
        <Form.Item name="entName" label={t('field.companyName')}>
          <Input allowClear data-testid="company-filter-name" />
        </Form.Item>
        <Form.Item name="entCode" label={t('field.socialCreditCode')}>
          <Input allowClear maxLength={18} />
        </Form.Item>
        <Form.Item name="entKind" label={t('field.kind')}>
          <Select
            allowClear
            style={{ width: 130 }}
            placeholder={t('filter.all')}
            options={[
              { value: 'enterprise', label: t('kind.enterprise') },
              { value: 'agent', label: t('kind.agent') },
            ]}
          />
        </Form.Item>
        <Form.Item name="entStatus" label={t('field.status')}>
          <Select
            allowClear
            style={{ width: 110 }}
            placeholder={t('filter.all')}
            options={[
              { value: 'enabled', label: t('status.enabled') },
              { value: 'paused', label: t('status.paused') },
            ]}
          />
        </Form.Item>
      </FilterBar>
      <ListTable
        config={config}
        query={list}
        state={listState}
        toolbar={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setDialog({ open: true, editing: null })}
            data-testid="company-add"
          >
            {t('enterprise.add')}
          </Button>
        }
        rowTestId={(row) => `company-row-${row.name}`}
        empty={t('enterprise.empty')}
        failed={{ description: t('loadFailed'), retryLabel: t('action.retry') }}
        showTotal={(total) => t('total', { count: total })}
      />
      <EnterpriseDialog
        open={dialog.open}
        editing={dialog.editing}
        allowAgent={allowAgent}
        onClose={() => setDialog({ open: false, editing: null })}
      />
      <Drawer
        open={viewing !== null}
        onClose={() => setViewing(null)}
        title={viewing?.name}
        size={560}
        data-testid="company-drawer"
      >
        {viewing ? <EnterpriseDescriptions ent={viewing} column={1} /> : null}
      </Drawer>
    </div>
  );
}
