import {
  CopyOutlined,
  DeleteOutlined,
  EditOutlined,
  EyeOutlined,
  PlusOutlined,
  ShareAltOutlined,
} from '@ant-design/icons';
import { Perm, RefType, TEMPLATE_PAGE_SIZE, type TemplateRow } from '@marquee/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { domainKey, useCallMutation } from '../../api/queries';
import { timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { PermissionDialog } from '../../components/permission-dialog/PermissionDialog';
import { useCan } from '../../session/useCan';
import { LayoutThumb } from './LayoutThumb';
import { TemplatePreviewDialog } from './TemplatePreviewDialog';
import './template.css';
import { shareOperation } from '../../components/shareOperation';

/**
 * The template page (route /template, spec section 2 'Template page'): a name filter with
 * clear and search, the data-scoped list with row selection (rows the caller may not share
 * cannot be selected), a share action per row and a share button for the selection behind
 * yxf_new_data_allocation, disabled while nothing is selected. Filters live in the URL.
 * Layouts (issue 11): each row shows its first page as a thumbnail; create and edit open the
 * editor (/template/new, /template/edit?id=), preview plays the layout in a dialog, copy and
 * delete (confirmed) behind yxf_new_template_edit; default layouts are copied, never changed.
 */
export default function TemplatePage() {
  const { t } = useTranslation('templates');
  const can = useCan();
  const canShare = can(Perm.dataAllocation);
  const canEdit = can(Perm.templateEdit);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [previewId, setPreviewId] = useState<string | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [sharing, setSharing] = useState<Pick<TemplateRow, 'id' | 'name'>[] | null>(null);
  // The names of the selected rows (kept across pages, as the selection is) for the dialog's title.
  const [selectedNames, setSelectedNames] = useState<Record<string, string>>({});

  const copy = useCallMutation('templateCopy', { success: t('toast.copied') });
  const remove = useCallMutation('templateDelete', {
    success: t('toast.deleted'),
    onSuccess: (_r, { id }) => setSelected((keys) => keys.filter((k) => k !== id)),
  });
  // A default layout cannot be changed; a layout the caller does not manage neither.
  const lockedReason = (row: TemplateRow) =>
    row.isDefault ? t('locked.default') : row.hasPermission ? false : t('locked.noPermission');

  const list = useListPage({
    id: 'templates',
    endpoint: 'templatePage',
    // Spec section 9: the template list pages by 20.
    defaultSize: TEMPLATE_PAGE_SIZE,
    filters: [
      {
        key: 'name',
        label: t('filter.name'),
        placeholder: t('filter.namePlaceholder'),
        maxLength: 100,
        width: 240,
        testId: 'template-filter-name',
      },
    ],
    // A new search starts a new selection.
    onFilter: () => setSelected([]),
    operationsLabel: t('column.actions'),
    columns: [
      {
        prop: 'name',
        label: t('column.name'),
        width: 340,
        slot: (value: string, row) => (
          <div className="mq-template-name-cell">
            <LayoutThumb doc={row.thumb} />
            <div className="mq-template-name">
              <Space size={4}>
                <Typography.Text strong>{value}</Typography.Text>
                {row.isDefault ? <Tag color="gold">{t('tag.default')}</Tag> : null}
              </Space>
              <Typography.Text type="secondary" className="mq-template-meta">
                {row.ownerName}
                {row.deptName ? ` · ${row.deptName}` : ''}
              </Typography.Text>
            </div>
          </div>
        ),
      },
      { prop: 'ownerName', label: t('column.owner'), width: 180, ellipsis: true },
      { prop: 'deptName', label: t('column.department'), width: 180, ellipsis: true },
      {
        prop: 'size',
        label: t('column.size'),
        width: 130,
        slot: (_v, row) => `${row.width} × ${row.height}`,
      },
      timeColumn<TemplateRow>('updatedAt', t('column.updatedAt'), { width: 180 }),
    ],
    operations: [
      {
        key: 'preview',
        label: t('preview'),
        icon: <EyeOutlined />,
        handler: (row) => setPreviewId(row.id),
        testId: (row) => `template-preview-${row.name}`,
      },
      {
        key: 'edit',
        label: t('edit'),
        authCode: Perm.templateEdit,
        notForMonitor: true,
        icon: <EditOutlined />,
        disabled: lockedReason,
        handler: (row) => navigate(`/template/edit?id=${encodeURIComponent(row.id)}`),
        testId: (row) => `template-edit-${row.name}`,
      },
      {
        key: 'copy',
        label: t('copy'),
        authCode: Perm.templateEdit,
        notForMonitor: true,
        icon: <CopyOutlined />,
        handler: (row) => copy.mutateAsync({ id: row.id }),
        testId: (row) => `template-copy-${row.name}`,
      },
      {
        key: 'delete',
        label: t('delete'),
        authCode: Perm.templateEdit,
        notForMonitor: true,
        danger: true,
        icon: <DeleteOutlined />,
        disabled: lockedReason,
        confirm: (row) => ({ title: t('confirm.delete', { name: row.name }) }),
        handler: (row) => remove.mutateAsync({ id: row.id }),
        testId: (row) => `template-delete-${row.name}`,
      },
      shareOperation<TemplateRow>({
        prefix: 'template',
        label: t('share'),
        noPermission: t('share.noPermission'),
        share: (row) => setSharing([row]),
        icon: true,
      }),
    ],
  });

  return (
    <ListPage
      list={list}
      testId="template-page"
      className="mq-template"
      title={t('title')}
      filterTestIds={{ search: 'template-filter-search', reset: 'template-filter-clear' }}
      toolbar={
        <Space>
          {canEdit ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => navigate('/template/new')}
              data-testid="template-create"
            >
              {t('create')}
            </Button>
          ) : null}
          {canShare ? (
            <Button
              type="primary"
              icon={<ShareAltOutlined />}
              disabled={selected.length === 0}
              onClick={() => setSharing(selected.map((id) => ({ id, name: selectedNames[id] ?? id })))}
              data-testid="template-share"
            >
              {selected.length > 0 ? t('share.selected', { count: selected.length }) : t('share')}
            </Button>
          ) : null}
        </Space>
      }
      empty={t('empty')}
      emptyImage={Empty.PRESENTED_IMAGE_SIMPLE}
      rowTestId={(row) => `template-row-${row.name}`}
      rowSelection={
        canShare
          ? {
              selectedRowKeys: selected,
              preserveSelectedRowKeys: true,
              onChange: (keys, rows) => {
                setSelected(keys.map(String));
                setSelectedNames((known) => ({
                  ...known,
                  ...Object.fromEntries(rows.filter(Boolean).map((r) => [r.id, r.name])),
                }));
              },
              // Spec section 5: rows whose has-permission is falsy cannot be selected.
              getCheckboxProps: (row) =>
                ({
                  disabled: !row.hasPermission,
                  'aria-label': t('selection.label', { name: row.name }),
                  'data-testid': `template-select-${row.name}`,
                }) as object,
            }
          : undefined
      }
      showTotal={(total) => t('total', { count: total })}
    >
      <TemplatePreviewDialog id={previewId} onClose={() => setPreviewId(null)} />
      <PermissionDialog
        open={sharing !== null}
        refType={RefType.template}
        refIds={sharing?.map((s) => s.id) ?? []}
        names={sharing?.map((s) => s.name) ?? []}
        onClose={() => setSharing(null)}
        onDone={() => {
          setSelected([]);
          void queryClient.invalidateQueries({ queryKey: domainKey('templates') });
        }}
      />
    </ListPage>
  );
}
