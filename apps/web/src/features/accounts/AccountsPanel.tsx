import { PlusOutlined, QrcodeOutlined } from '@ant-design/icons';
import { ACCOUNT_SORT_KEYS, type AccountRow, Perm } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { enabledLook, tagColumn, timeColumn } from '../../components/columns';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import type { TableConfig } from '../../components/tableConfig';
import { useSession } from '../../session/session';
import { useCan } from '../../session/useCan';
import { invalidateOrg, ORG_KEY } from '../dept/queries';
import { AccountDialog, BatchDialog, ResetPasswordDialog } from './AccountDialogs';
import { DeptPicker, RolePicker } from './AccountFields';
import { InviteDialog } from './InviteDialog';

const FILTER_KEYS = ['loginName', 'realName', 'roleId', 'deptId', 'phone', 'status'] as const;

/**
 * Accounts (sub-accounts) of the caller's enterprise within their data scope: filters in the
 * URL, row selection with batch roles and departments, add by hand or by QR invitation,
 * edit, pause/enable, reset password and delete (each destructive action asks first).
 */
export function AccountsPanel() {
  const { t } = useTranslation(['accounts', 'common']);
  const { message } = App.useApp();
  const can = useCan();
  const manage = can(Perm.userAccountManage);
  const selfId = useSession((s) => s.id);
  const queryClient = useQueryClient();
  const listState = useUrlListState(FILTER_KEYS, { sortKeys: ACCOUNT_SORT_KEYS });
  const { filters, pageRequest } = listState;
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<{ open: boolean; editing: AccountRow | null }>({ open: false, editing: null });
  const [inviting, setInviting] = useState(false);
  const [resetting, setResetting] = useState<AccountRow | null>(null);
  const [batch, setBatch] = useState<'roles' | 'depts' | null>(null);

  const list = useQuery({
    queryKey: [ORG_KEY, 'accounts', pageRequest, filters],
    queryFn: ({ signal }) =>
      call(
        'accountList',
        { ...pageRequest, ...filters, status: filters.status as 'enabled' | 'paused' | undefined },
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

  const manageOp = { authCode: Perm.userAccountManage };
  const config: TableConfig<AccountRow> = {
    id: 'accounts',
    columns: [
      {
        prop: 'loginName',
        label: t('field.loginName'),
        width: 200,
        ellipsis: true,
        sortable: true,
        slot: (v: string, row) => (
          <Space size={4}>
            {v}
            {row.isEntAdmin ? <Tag color="gold">{t('account.admin')}</Tag> : null}
          </Space>
        ),
      },
      { prop: 'realName', label: t('field.realName'), width: 140, ellipsis: true, sortable: true },
      {
        prop: 'roles',
        label: t('field.roles'),
        width: 180,
        slot: (v: AccountRow['roles']) => (v.length === 0 ? '-' : v.map((r) => <Tag key={r.id}>{r.name}</Tag>)),
      },
      {
        prop: 'departments',
        label: t('field.departments'),
        width: 180,
        slot: (v: AccountRow['departments'], row) =>
          v.length === 0
            ? '-'
            : v.map((d) => (
                <Tag key={d.id} color={d.id === row.currentDeptId ? 'blue' : undefined}>
                  {d.name}
                </Tag>
              )),
      },
      { prop: 'phone', label: t('field.phone'), width: 130 },
      { prop: 'email', label: t('field.email'), width: 200, ellipsis: true },
      tagColumn('status', t('field.status'), enabledLook(t)),
      timeColumn('lastLoginAt', t('field.lastLoginAt'), { sortable: true }),
    ],
    operations: [
      {
        ...manageOp,
        key: 'edit',
        label: t('action.edit'),
        handler: (row) => setDialog({ open: true, editing: row }),
        testId: (row) => `account-edit-${row.loginName}`,
      },
      {
        ...manageOp,
        key: 'pause',
        label: t('action.pause'),
        isShow: (row) => row.status === 'enabled',
        disabled: (row) => row.id === selfId,
        danger: true,
        confirm: (row) => ({
          title: t('account.pauseConfirm', { name: row.loginName }),
          description: t('account.pauseHint'),
        }),
        handler: (row) => setStatus.mutateAsync({ id: row.id, status: 'paused' }),
        testId: (row) => `account-pause-${row.loginName}`,
      },
      {
        ...manageOp,
        key: 'enable',
        label: t('action.enable'),
        isShow: (row) => row.status === 'paused',
        confirm: (row) => ({ title: t('account.enableConfirm', { name: row.loginName }) }),
        handler: (row) => setStatus.mutateAsync({ id: row.id, status: 'enabled' }),
        testId: (row) => `account-enable-${row.loginName}`,
      },
      {
        ...manageOp,
        key: 'resetPassword',
        label: t('account.resetPassword'),
        handler: (row) => setResetting(row),
        testId: (row) => `account-reset-${row.loginName}`,
      },
      {
        ...manageOp,
        key: 'delete',
        label: t('action.delete'),
        danger: true,
        disabled: (row) => row.id === selfId,
        confirm: (row) => ({
          title: t('account.deleteConfirm', { name: row.loginName }),
          description: t('account.deleteHint'),
        }),
        handler: (row) => remove.mutateAsync(row.id),
        testId: (row) => `account-delete-${row.loginName}`,
      },
    ],
  };

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
      <ListTable
        config={config}
        query={list}
        state={listState}
        toolbar={
          manage ? (
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
          ) : null
        }
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
