import { PlusOutlined } from '@ant-design/icons';
import { formatTime, Perm, ROLE_TYPES, type RoleRow } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Select, Space, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { ConfirmAction } from '../../components/ConfirmAction';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { useCan } from '../../shell/useCan';
import { DeptPicker } from '../company/AccountFields';
import { invalidateOrg, ORG_KEY } from '../company/queries';
import { isAdminRole, RoleDialog, type RoleDialogMode } from './RoleDialog';
import '../company/company.css';

const FILTER_KEYS = ['name', 'type', 'deptId'] as const;

/**
 * Roles (/user/companyRole): list by name, type and department (in the URL); add, view,
 * edit and delete; the built-in administrator role cannot be deleted.
 */
export default function RolesPage() {
  const { t } = useTranslation(['roles', 'common']);
  const { message } = App.useApp();
  const can = useCan();
  const manage = can(Perm.userRoleManage);
  const queryClient = useQueryClient();
  const listState = useUrlListState(FILTER_KEYS);
  const { page, size, filters } = listState;
  const [dialog, setDialog] = useState<{ mode: RoleDialogMode | null; role: RoleRow | null }>({
    mode: null,
    role: null,
  });

  const list = useQuery({
    queryKey: [ORG_KEY, 'roles', page, size, filters],
    queryFn: ({ signal }) =>
      call(
        'roleList',
        { page, size, name: filters.name, deptId: filters.deptId, type: filters.type as (typeof ROLE_TYPES)[number] },
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

  const columns: ColumnsType<RoleRow> = [
    {
      title: t('field.name'),
      dataIndex: 'name',
      ellipsis: true,
      render: (v: string, row) => (
        <Space size={4}>
          {v}
          {row.builtin ? <Tag color="gold">{t('builtin')}</Tag> : null}
        </Space>
      ),
    },
    {
      title: t('field.type'),
      dataIndex: 'type',
      width: 130,
      render: (v: string) => t(`type.${v}`, { defaultValue: v }),
    },
    {
      title: t('field.dept'),
      dataIndex: 'deptName',
      width: 160,
      render: (v: string | null) => v ?? t('field.deptNone'),
    },
    { title: t('field.dataScope'), dataIndex: 'dataScope', width: 160, render: (v: string) => t(`scope.${v}`) },
    {
      title: t('field.codes'),
      dataIndex: 'permissionCodes',
      width: 110,
      render: (v: string[]) => v.length,
    },
    { title: t('field.accounts'), dataIndex: 'accountCount', width: 100 },
    {
      title: t('field.createdAt'),
      dataIndex: 'createdAt',
      width: 150,
      render: (v: string) => formatTime(v),
    },
    {
      title: t('field.actions'),
      key: 'actions',
      width: 190,
      fixed: 'right',
      render: (_: unknown, row) => {
        const admin = isAdminRole(row);
        return (
          <Space size={0}>
            <Button
              type="link"
              size="small"
              onClick={() => setDialog({ mode: 'view', role: row })}
              data-testid={`role-view-${row.name}`}
            >
              {t('action.view')}
            </Button>
            {manage ? (
              <>
                <Button
                  type="link"
                  size="small"
                  onClick={() => setDialog({ mode: 'edit', role: row })}
                  data-testid={`role-edit-${row.name}`}
                >
                  {t('action.edit')}
                </Button>
                {admin ? (
                  <Tooltip title={t('adminNoDelete')}>
                    <Button type="link" size="small" danger disabled data-testid={`role-delete-${row.name}`}>
                      {t('action.delete')}
                    </Button>
                  </Tooltip>
                ) : (
                  <ConfirmAction
                    label={t('action.delete')}
                    title={t('deleteConfirm', { name: row.name })}
                    description={row.accountCount > 0 ? t('deleteHint', { count: row.accountCount }) : undefined}
                    cancelText={t('action.cancel')}
                    danger
                    testId={`role-delete-${row.name}`}
                    onConfirm={() => remove.mutateAsync(row.id)}
                  />
                )}
              </>
            ) : null}
          </Space>
        );
      },
    },
  ];

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
      <Card
        size="small"
        title={t('title')}
        extra={
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
      >
        <ListTable
          query={list}
          state={listState}
          columns={columns}
          scroll={{ x: 1100 }}
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
