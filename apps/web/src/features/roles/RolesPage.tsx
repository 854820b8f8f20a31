import { endpointDomain, Perm, ROLE_TYPES, type RoleRow } from '@marquee/protocol';
import { Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { AddButton } from '../../components/AddButton';
import { timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { DeptPicker } from '../../components/pickers/DeptPicker';
import { formatThousands } from '../../components/tableConfig';
import { isAdminRole, RoleDialog, type RoleDialogMode } from './RoleDialog';

/**
 * Roles (/user/companyRole): list by name, type and department (in the URL); add, view,
 * edit and delete; the built-in administrator role cannot be deleted.
 */
export default function RolesPage() {
  const { t, i18n } = useTranslation(['roles', 'common']);
  const [dialog, setDialog] = useState<{ mode: RoleDialogMode | null; role: RoleRow | null }>({
    mode: null,
    role: null,
  });

  // The accounts list names each account's roles.
  const remove = useCallMutation('roleDelete', {
    success: t('toast.deleted'),
    invalidates: [endpointDomain('accountList')],
  });

  const list = useListPage({
    id: 'roles',
    endpoint: 'roleList',
    filters: [
      { key: 'name', label: t('field.name'), testId: 'role-filter-name' },
      {
        key: 'type',
        kind: 'select',
        label: t('field.type'),
        width: 140,
        placeholder: t('filter.all'),
        options: ROLE_TYPES.map((r) => ({ value: r, label: t(`type.${r}`) })),
        testId: 'role-filter-type',
      },
      {
        key: 'deptId',
        kind: 'custom',
        label: t('field.dept'),
        render: () => (
          <DeptPicker allowClear style={{ width: 180 }} placeholder={t('filter.all')} testId="role-filter-dept" />
        ),
      },
    ],
    columns: [
      {
        prop: 'name',
        label: t('field.name'),
        width: 220,
        ellipsis: true,
        sortable: true,
        slot: (v: string, row) => (
          <Space size={4}>
            {v}
            {row.builtin ? <Tag color="gold">{t('builtin')}</Tag> : null}
          </Space>
        ),
      },
      { prop: 'type', label: t('field.type'), width: 130, slot: (v: string) => t(`type.${v}`, { defaultValue: v }) },
      {
        prop: 'deptName',
        label: t('field.dept'),
        width: 160,
        ellipsis: true,
        slot: (v: string | null) => v ?? t('field.deptNone'),
      },
      { prop: 'dataScope', label: t('field.dataScope'), width: 160, slot: (v: string) => t(`scope.${v}`) },
      {
        prop: 'permissionCodes',
        label: t('field.codes'),
        width: 110,
        align: 'right',
        slot: (v: string[]) => formatThousands(v.length, i18n.language),
      },
      { prop: 'accountCount', label: t('field.accounts'), width: 110, sortable: true, showThousands: true },
      timeColumn<RoleRow>('createdAt', t('field.createdAt'), { sortable: true }),
    ],
    operations: [
      {
        key: 'view',
        label: t('action.view'),
        handler: (row) => setDialog({ mode: 'view', role: row }),
        testId: (row) => `role-view-${row.name}`,
      },
      {
        key: 'edit',
        label: t('action.edit'),
        authCode: Perm.userRoleManage,
        handler: (row) => setDialog({ mode: 'edit', role: row }),
        testId: (row) => `role-edit-${row.name}`,
      },
      {
        key: 'delete',
        label: t('action.delete'),
        authCode: Perm.userRoleManage,
        danger: true,
        // The built-in administrator role stays: the button says why it cannot be used.
        disabled: (row) => (isAdminRole(row) ? t('adminNoDelete') : false),
        confirm: (row) => ({
          title: t('deleteConfirm', { name: row.name }),
          description: row.accountCount > 0 ? t('deleteHint', { count: row.accountCount }) : undefined,
        }),
        handler: (row) => remove.mutateAsync({ id: row.id }),
        testId: (row) => `role-delete-${row.name}`,
      },
    ],
  });

  return (
    <ListPage
      list={list}
      filterTestIds={{ search: 'role-search', reset: 'role-reset' }}
      title={t('title')}
      toolbar={
        <AddButton
          label={t('add')}
          authCode={Perm.userRoleManage}
          onClick={() => setDialog({ mode: 'add', role: null })}
          testId="role-add"
        />
      }
      rowTestId={(row) => `role-row-${row.name}`}
      empty={t('empty')}
      failed={{ description: t('loadFailed'), retryLabel: t('action.retry') }}
      showTotal={(total) => t('total', { count: total })}
    >
      <RoleDialog mode={dialog.mode} role={dialog.role} onClose={() => setDialog({ mode: null, role: null })} />
    </ListPage>
  );
}
