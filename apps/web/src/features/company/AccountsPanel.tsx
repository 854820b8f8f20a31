import { PlusOutlined, QrcodeOutlined } from '@ant-design/icons';
import { type AccountRow, formatTime, Perm } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Select, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useSession } from '../../app/session';
import { ConfirmAction, StatusAction } from '../../components/ConfirmAction';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { useCan } from '../../shell/useCan';
import { AccountDialog, BatchDialog, ResetPasswordDialog } from './AccountDialogs';
import { DeptPicker, RolePicker } from './AccountFields';
import { InviteDialog } from './InviteDialog';
import { invalidateOrg, ORG_KEY } from './queries';

const FILTER_KEYS = ['loginName', 'realName', 'roleId', 'deptId', 'phone', 'status'] as const;

/**
 * Accounts (sub-accounts) of the caller's enterprise within their data scope: filters in the
 * URL, row selection with batch roles and departments, add by hand or by QR invitation,
 * edit, pause/enable, reset password and delete (each destructive action asks first).
 */
export function AccountsPanel() {
  const { t } = useTranslation(['company', 'common']);
  const { message } = App.useApp();
  const can = useCan();
  const manage = can(Perm.userAccountManage);
  const selfId = useSession((s) => s.id);
  const queryClient = useQueryClient();
  const listState = useUrlListState(FILTER_KEYS);
  const { page, size, filters } = listState;
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<{ open: boolean; editing: AccountRow | null }>({ open: false, editing: null });
  const [inviting, setInviting] = useState(false);
  const [resetting, setResetting] = useState<AccountRow | null>(null);
  const [batch, setBatch] = useState<'roles' | 'depts' | null>(null);

  const list = useQuery({
    queryKey: [ORG_KEY, 'accounts', page, size, filters],
    queryFn: ({ signal }) =>
      call(
        'accountList',
        { page, size, ...filters, status: filters.status as 'enabled' | 'paused' | undefined },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

  const done = (key: string) => {
    void message.success(t(key));
    void invalidateOrg(queryClient);
  };
  const setStatus = useMutation({
    mutationFn: (v: { id: string; status: 'enabled' | 'paused' }) => call('accountSetStatus', v),
    onSuccess: (_r, v) => done(v.status === 'paused' ? 'toast.accountPaused' : 'toast.accountEnabled'),
  });
  const remove = useMutation({
    mutationFn: (id: string) => call('accountDelete', { id }),
    onSuccess: (_r, id) => {
      setSelected((s) => s.filter((x) => x !== id));
      done('toast.accountDeleted');
    },
  });

  const columns: ColumnsType<AccountRow> = [
    {
      title: t('field.loginName'),
      dataIndex: 'loginName',
      width: 150,
      ellipsis: true,
      render: (v: string, row) => (
        <Space size={4}>
          {v}
          {row.isEntAdmin ? <Tag color="gold">{t('account.admin')}</Tag> : null}
        </Space>
      ),
    },
    { title: t('field.realName'), dataIndex: 'realName', width: 140, ellipsis: true },
    {
      title: t('field.roles'),
      dataIndex: 'roles',
      width: 200,
      render: (v: AccountRow['roles']) => (v.length === 0 ? '-' : v.map((r) => <Tag key={r.id}>{r.name}</Tag>)),
    },
    {
      title: t('field.departments'),
      dataIndex: 'departments',
      width: 200,
      render: (v: AccountRow['departments'], row) =>
        v.length === 0
          ? '-'
          : v.map((d) => (
              <Tag key={d.id} color={d.id === row.currentDeptId ? 'blue' : undefined}>
                {d.name}
              </Tag>
            )),
    },
    { title: t('field.phone'), dataIndex: 'phone', width: 130, render: (v: string) => v || '-' },
    { title: t('field.email'), dataIndex: 'email', width: 180, ellipsis: true, render: (v: string) => v || '-' },
    {
      title: t('field.status'),
      dataIndex: 'status',
      width: 90,
      render: (v: string) => <Tag color={v === 'enabled' ? 'success' : 'default'}>{t(`status.${v}`)}</Tag>,
    },
    {
      title: t('field.lastLoginAt'),
      dataIndex: 'lastLoginAt',
      width: 150,
      render: (v: string | null) => formatTime(v),
    },
    ...(manage
      ? [
          {
            title: t('field.actions'),
            key: 'actions',
            width: 320,
            fixed: 'right' as const,
            render: (_: unknown, row: AccountRow) => {
              const self = row.id === selfId;
              return (
                <Space size={0} wrap>
                  <Button
                    type="link"
                    size="small"
                    onClick={() => setDialog({ open: true, editing: row })}
                    data-testid={`account-edit-${row.loginName}`}
                  >
                    {t('action.edit')}
                  </Button>
                  <StatusAction
                    status={row.status}
                    texts={{
                      pause: t('action.pause'),
                      enable: t('action.enable'),
                      pauseTitle: t('account.pauseConfirm', { name: row.loginName }),
                      pauseHint: t('account.pauseHint'),
                      enableTitle: t('account.enableConfirm', { name: row.loginName }),
                      cancel: t('action.cancel'),
                    }}
                    disabled={self}
                    testId={(action) => `account-${action}-${row.loginName}`}
                    onSet={(status) => setStatus.mutateAsync({ id: row.id, status })}
                  />
                  <Button
                    type="link"
                    size="small"
                    onClick={() => setResetting(row)}
                    data-testid={`account-reset-${row.loginName}`}
                  >
                    {t('account.resetPassword')}
                  </Button>
                  <ConfirmAction
                    label={t('action.delete')}
                    title={t('account.deleteConfirm', { name: row.loginName })}
                    description={t('account.deleteHint')}
                    cancelText={t('action.cancel')}
                    danger
                    disabled={self}
                    testId={`account-delete-${row.loginName}`}
                    onConfirm={() => remove.mutateAsync(row.id)}
                  />
                </Space>
              );
            },
          },
        ]
      : []),
  ];

  return (
    <div data-testid="accounts-panel">
      <FilterBar
        values={filters}
        onSearch={listState.applyFilters}
        onReset={listState.clearFilters}
        testIds={{ search: 'account-search', reset: 'account-reset-filters' }}
        className="mq-org-filters"
      >
        <Form.Item name="loginName" label={t('field.loginName')}>
          <Input allowClear data-testid="account-filter-login" />
        </Form.Item>
        <Form.Item name="realName" label={t('field.realName')}>
          <Input allowClear data-testid="account-filter-name" />
        </Form.Item>
        <Form.Item name="roleId" label={t('field.role')}>
          <RolePicker allowClear style={{ width: 160 }} placeholder={t('filter.all')} testId="account-filter-role" />
        </Form.Item>
        <Form.Item name="deptId" label={t('field.department')}>
          <DeptPicker allowClear style={{ width: 180 }} placeholder={t('filter.all')} testId="account-filter-dept" />
        </Form.Item>
        <Form.Item name="phone" label={t('field.phone')}>
          <Input allowClear style={{ width: 150 }} data-testid="account-filter-phone" />
        </Form.Item>
        <Form.Item name="status" label={t('field.status')}>
          <Select
            allowClear
            style={{ width: 110 }}
            placeholder={t('filter.all')}
            options={[
              { value: 'enabled', label: t('status.enabled') },
              { value: 'paused', label: t('status.paused') },
            ]}
            data-testid="account-filter-status"
          />
        </Form.Item>
      </FilterBar>
      {manage ? (
        <div className="mq-org-toolbar">
          <Space wrap>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setDialog({ open: true, editing: null })}
              data-testid="account-add"
            >
              {t('account.add')}
            </Button>
            <Button icon={<QrcodeOutlined />} onClick={() => setInviting(true)} data-testid="account-invite">
              {t('account.invite')}
            </Button>
            <Button
              disabled={selected.length === 0}
              onClick={() => setBatch('roles')}
              data-testid="account-batch-roles"
            >
              {t('account.batchRoles')}
            </Button>
            <Button
              disabled={selected.length === 0}
              onClick={() => setBatch('depts')}
              data-testid="account-batch-depts"
            >
              {t('account.batchDepts')}
            </Button>
            {selected.length > 0 ? (
              <span className="mq-org-hint">{t('account.selected', { count: selected.length })}</span>
            ) : null}
          </Space>
        </div>
      ) : null}
      <ListTable
        query={list}
        state={listState}
        columns={columns}
        scroll={{ x: 1600 }}
        rowSelection={
          manage
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys as string[]),
                preserveSelectedRowKeys: true,
                getCheckboxProps: (row) =>
                  ({ 'data-testid': `account-select-${row.loginName}` }) as Record<string, string>,
              }
            : undefined
        }
        rowTestId={(row) => `account-row-${row.loginName}`}
        empty={t('account.empty')}
        failed={{ description: t('loadFailed'), retryLabel: t('action.retry') }}
        showTotal={(total) => t('total', { count: total })}
      />
      <AccountDialog
        open={dialog.open}
        editing={dialog.editing}
        onClose={() => setDialog({ open: false, editing: null })}
      />
      <InviteDialog open={inviting} onClose={() => setInviting(false)} />
      <ResetPasswordDialog account={resetting} onClose={() => setResetting(null)} />
      <BatchDialog
        kind={batch}
        ids={selected}
        onClose={() => setBatch(null)}
        onDone={() => {
          setBatch(null);
          setSelected([]);
        }}
      />
    </div>
  );
}
