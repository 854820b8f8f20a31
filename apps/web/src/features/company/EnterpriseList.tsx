import { PlusOutlined } from '@ant-design/icons';
import { type EnterpriseRow, formatTime } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Descriptions, Drawer, Form, Input, Select, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { StatusAction } from '../../components/ConfirmAction';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { EnterpriseDialog } from './EnterpriseDialog';
import { invalidateOrg, ORG_KEY } from './queries';

const FILTER_KEYS = ['entName', 'entCode', 'entKind', 'entStatus'] as const;

/** Descriptions of one enterprise (the list's detail drawer and the own-enterprise card). */
export function EnterpriseDescriptions({ ent, column = 3 }: { ent: EnterpriseRow; column?: number }) {
  const { t } = useTranslation('company');
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
  const { t } = useTranslation(['company', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const listState = useUrlListState(FILTER_KEYS);
  const { page, size, filters } = listState;
  const [dialog, setDialog] = useState<{ open: boolean; editing: EnterpriseRow | null }>({
    open: false,
    editing: null,
  });
  const [viewing, setViewing] = useState<EnterpriseRow | null>(null);

  const list = useQuery({
    queryKey: [ORG_KEY, 'enterprises', page, size, filters],
    queryFn: ({ signal }) =>
      call(
        'enterpriseList',
        {
          page,
          size,
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

  const columns: ColumnsType<EnterpriseRow> = [
    {
      title: t('field.companyName'),
      dataIndex: 'name',
      width: 240,
      ellipsis: true,
      render: (name: string, row) => (
        <Typography.Link onClick={() => setViewing(row)} title={name} data-testid={`company-view-${row.name}`}>
          {name}
        </Typography.Link>
      ),
    },
    {
      title: t('field.kind'),
      dataIndex: 'kind',
      width: 110,
      render: (v: string) => <Tag color={v === 'agent' ? 'purple' : 'blue'}>{t(`kind.${v}`)}</Tag>,
    },
    { title: t('field.socialCreditCode'), dataIndex: 'socialCreditCode', width: 190 },
    { title: t('field.contact'), dataIndex: 'contact', width: 120, ellipsis: true },
    { title: t('field.phone'), dataIndex: 'phone', width: 140 },
    {
      title: t('field.accountType'),
      dataIndex: 'accountType',
      width: 110,
      render: (v: string) => t(`accountType.${v}`),
    },
    { title: t('field.admin'), dataIndex: 'adminLoginName', width: 140, render: (v: string | null) => v ?? '-' },
    {
      title: t('field.status'),
      dataIndex: 'status',
      width: 90,
      render: (v: string) => <Tag color={v === 'enabled' ? 'success' : 'default'}>{t(`status.${v}`)}</Tag>,
    },
    {
      title: t('field.createdAt'),
      dataIndex: 'createdAt',
      width: 150,
      render: (v: string) => formatTime(v),
    },
    {
      title: t('field.actions'),
      key: 'actions',
      width: 150,
      fixed: 'right',
      render: (_: unknown, row) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            onClick={() => setDialog({ open: true, editing: row })}
            data-testid={`company-edit-${row.name}`}
          >
            {t('action.edit')}
          </Button>
          <StatusAction
            status={row.status}
            texts={{
              pause: t('action.pause'),
              enable: t('action.enable'),
              pauseTitle: t('enterprise.pauseConfirm', { name: row.name }),
              pauseHint: t('enterprise.pauseHint'),
              enableTitle: t('enterprise.enableConfirm', { name: row.name }),
              cancel: t('action.cancel'),
            }}
            testId={(action) => `company-${action}-${row.name}`}
            onSet={(status) => setStatus.mutateAsync({ id: row.id, status })}
          />
        </Space>
      ),
    },
  ];

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
      <div className="mq-org-toolbar">
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setDialog({ open: true, editing: null })}
          data-testid="company-add"
        >
          {t('enterprise.add')}
        </Button>
      </div>
      <ListTable
        query={list}
        state={listState}
        columns={columns}
        scroll={{ x: 1300 }}
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
