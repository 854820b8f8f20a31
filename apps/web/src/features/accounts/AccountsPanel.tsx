import { PlusOutlined, QrcodeOutlined } from '@ant-design/icons';
import { type AccountRow, Perm } from '@marquee/protocol';
import { Button, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { enabledLook, tagColumn, timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { DeptPicker } from '../../components/pickers/DeptPicker';
import { RolePicker } from '../../components/pickers/RolePicker';
import { statusOperations, statusOptions } from '../../components/statusOperations';
import { useSession } from '../../session/session';
import { useCan } from '../../session/useCan';
import { ACCOUNT_SHOWN_IN, AccountDialog, BatchDialog, ResetPasswordDialog } from './AccountDialogs';
import { InviteDialog } from './InviteDialog';

/**
 * Accounts (sub-accounts) of the caller's enterprise within their data scope: filters in the
 * URL, row selection with batch roles and departments, add by hand or by QR invitation,
 * edit, pause/enable, reset password and delete (each destructive action asks first). A panel
 * (a tab of /user/company), not a page of its own.
 */
export function AccountsPanel() {
  const { t } = useTranslation(['accounts', 'common']);
  const can = useCan();
  const manage = can(Perm.userAccountManage);
  const selfId = useSession((s) => s.id);
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<{ open: boolean; editing: AccountRow | null }>({ open: false, editing: null });
  const [inviting, setInviting] = useState(false);
  const [resetting, setResetting] = useState<AccountRow | null>(null);
  const [batch, setBatch] = useState<'roles' | 'depts' | null>(null);

  const setStatus = useCallMutation('accountSetStatus', {
    success: (_r, v) => t(v.status === 'paused' ? 'toast.accountPaused' : 'toast.accountEnabled'),
    invalidates: ACCOUNT_SHOWN_IN,
  });
  const remove = useCallMutation('accountDelete', {
    success: t('toast.accountDeleted'),
    invalidates: ACCOUNT_SHOWN_IN,
    onSuccess: (_r, v) => setSelected((s) => s.filter((x) => x !== v.id)),
  });

  const manageOp = { authCode: Perm.userAccountManage };
  const list = useListPage({
    id: 'accounts',
    endpoint: 'accountList',
    filters: [
      { key: 'loginName', label: t('field.loginName'), testId: 'account-filter-login' },
      { key: 'realName', label: t('field.realName'), testId: 'account-filter-name' },
      {
        key: 'roleId',
        kind: 'custom',
        label: t('field.role'),
        render: () => (
          <RolePicker allowClear style={{ width: 160 }} placeholder={t('filter.all')} testId="account-filter-role" />
        ),
      },
      {
        key: 'deptId',
        kind: 'custom',
        label: t('field.department'),
        render: () => (
          <DeptPicker allowClear style={{ width: 180 }} placeholder={t('filter.all')} testId="account-filter-dept" />
        ),
      },
      { key: 'phone', label: t('field.phone'), width: 150, testId: 'account-filter-phone' },
      {
        key: 'status',
        kind: 'select',
        label: t('field.status'),
        width: 110,
        placeholder: t('filter.all'),
        options: statusOptions(t),
        testId: 'account-filter-status',
      },
    ],
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
      tagColumn<AccountRow>('status', t('field.status'), enabledLook(t)),
      timeColumn<AccountRow>('lastLoginAt', t('field.lastLoginAt'), { sortable: true }),
    ],
    operations: [
      {
        ...manageOp,
        key: 'edit',
        label: t('action.edit'),
        handler: (row) => setDialog({ open: true, editing: row }),
        testId: (row) => `account-edit-${row.loginName}`,
      },
      ...statusOperations<AccountRow>(
        (row, status) => setStatus.mutateAsync({ id: row.id, status }),
        {
          ...manageOp,
          label: t('action.pause'),
          disabled: (row) => row.id === selfId,
          danger: true,
          confirm: (row) => ({
            title: t('account.pauseConfirm', { name: row.loginName }),
            description: t('account.pauseHint'),
          }),
          testId: (row) => `account-pause-${row.loginName}`,
        },
        {
          ...manageOp,
          label: t('action.enable'),
          confirm: (row) => ({ title: t('account.enableConfirm', { name: row.loginName }) }),
          testId: (row) => `account-enable-${row.loginName}`,
        },
      ),
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
        handler: (row) => remove.mutateAsync({ id: row.id }),
        testId: (row) => `account-delete-${row.loginName}`,
      },
    ],
  });

  return (
    <ListPage
      list={list}
      bare
      testId="accounts-panel"
      filterTestIds={{ search: 'account-search', reset: 'account-reset-filters' }}
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
    >
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
    </ListPage>
  );
}
