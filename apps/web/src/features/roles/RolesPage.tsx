import { PlusOutlined } from '@ant-design/icons';
import { Perm, ROLE_SORT_KEYS, ROLE_TYPES, type RoleRow } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { formatThousands, type TableConfig } from '../../components/tableConfig';
import { useCan } from '../../session/useCan';
import { DeptPicker } from '../accounts/AccountFields';
import { invalidateOrg, ORG_KEY } from '../dept/queries';
import { isAdminRole, RoleDialog, type RoleDialogMode } from './RoleDialog';
import '../accounts/company.css';
import { timeColumn } from '../../components/columns';

const FILTER_KEYS = ['name', 'type', 'deptId'] as const;

/**
 * Roles (/user/companyRole): list by name, type and department (in the URL); add, view,
 * edit and delete; the built-in administrator role cannot be deleted.
 */
export default function RolesPage() {
  const { t, i18n } = useTranslation(['roles', 'common']);
  const { message } = App.useApp();
  const can = useCan();
  const manage = can(Perm.userRoleManage);
  const queryClient = useQueryClient();
  const listState = useUrlListState(FILTER_KEYS, { sortKeys: ROLE_SORT_KEYS });
  const { filters, pageRequest } = listState;
  const [dialog, setDialog] = useState<{ mode: RoleDialogMode | null; role: RoleRow | null }>({
    mode: null,
    role: null,
  });

  const list = useQuery({
    queryKey: [ORG_KEY, 'roles', pageRequest, filters],
    queryFn: ({ signal }) =>
      call(
        'roleList',
        {
          ...pageRequest,
          name: filters.name,
          deptId: filters.deptId,
          type: filters.type as (typeof ROLE_TYPES)[number],
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

  const remove = useMutation({
    mutationFn: (id: string) => call('roleDelete', { id }),
    onSuccess: () => {
      void message.success(t('toast.deleted'));
      void invalidateOrg(queryClient);
    },
  });

  const config: TableConfig<RoleRow> = {
    id: 'roles',
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
      timeColumn('createdAt', t('field.createdAt'), { sortable: true }),
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
        handler: (row) => remove.mutateAsync(row.id),
        testId: (row) => `role-delete-${row.name}`,
      },
    ],
  };
  return (
    <div className="mq-view mq-company" data-testid="roles-page">
      <Card size="small">
        <FilterBar
          values={filters}
          onSearch={listState.applyFilters}
          onReset={listState.clearFilters}
          testIds={{ search: 'role-search' }}
          className="mq-org-filters"
          style={{ marginBottom: 0 }}
        >
          <Form.Item name="name" label={t('field.name')}>
            <Input allowClear data-testid="role-filter-name" />
          </Form.Item>
          <Form.Item name="type" label={t('field.type')}>
            <Select
              allowClear
              style={{ width: 140 }}
              placeholder={t('filter.all')}
              options={ROLE_TYPES.map((r) => ({ value: r, label: t(`type.${r}`) }))}
              data-testid="role-filter-type"
            />
          </Form.Item>
          <Form.Item name="deptId" label={t('field.dept')}>
            <DeptPicker allowClear style={{ width: 180 }} placeholder={t('filter.all')} testId="role-filter-dept" />
          </Form.Item>
        </FilterBar>
      </Card>
      <Card size="small" title={t('title')}>
        <ListTable
          config={config}
          query={list}
          state={listState}
          toolbar={
            manage ? (
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setDialog({ mode: 'add', role: null })}
                data-testid="role-add"
              >
                {t('add')}
              </Button>
            ) : null
          }
          rowTestId={(row) => `role-row-${row.name}`}
          empty={t('empty')}
          failed={{ description: t('loadFailed'), retryLabel: t('action.retry') }}
          showTotal={(total) => t('total', { count: total })}
        />
      </Card>
      <RoleDialog mode={dialog.mode} role={dialog.role} onClose={() => setDialog({ mode: null, role: null })} />
    </div>
  );
}
