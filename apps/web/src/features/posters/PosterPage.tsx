import { type PosterTemplateRow, RefType } from '@marquee/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Image, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { domainKey, useCallMutation } from '../../api/queries';
import { timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { PermissionDialog } from '../../components/permission-dialog/PermissionDialog';
import { NewPosterDialog } from './NewPosterDialog';
import './poster.css';
import { AddButton } from '../../components/AddButton';
import { shareOperation } from '../../components/shareOperation';

/**
 * Poster templates (/poster): the data-scoped list with the last poster made as a preview,
 * and per template: edit, make a poster (fill mode), copy, share, delete (confirmed; only who
 * may manage it). New templates start from a size preset.
 */
export default function PosterPage() {
  const { t } = useTranslation('posters');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [sharing, setSharing] = useState<PosterTemplateRow | null>(null);

  const copy = useCallMutation('posterTemplateCopy', { success: t('list.copied') });
  const remove = useCallMutation('posterTemplateDelete', { success: t('list.deleted') });

  const list = useListPage({
    id: 'posterTemplates',
    endpoint: 'posterTemplatePage',
    defaultSize: 20,
    filters: [
      {
        key: 'name',
        label: t('filter.name'),
        placeholder: t('filter.namePlaceholder'),
        width: 240,
        testId: 'poster-filter-name',
      },
    ],
    operationsLabel: t('column.actions'),
    columns: [
      {
        prop: 'thumbUrl',
        label: t('column.preview'),
        width: 96,
        slot: (value: string | null, row) =>
          value ? (
            <Image src={value} alt={row.name} width={64} height={64} className="mq-poster-thumb" />
          ) : (
            <div className="mq-poster-thumb is-empty" style={{ aspectRatio: `${row.width} / ${row.height}` }} />
          ),
      },
      {
        prop: 'name',
        label: t('column.name'),
        width: 240,
        slot: (value: string) => <Typography.Text strong>{value}</Typography.Text>,
      },
      { prop: 'size', label: t('column.size'), width: 130, slot: (_v, row) => `${row.width} × ${row.height}` },
      { prop: 'fieldCount', label: t('column.fields'), width: 90, align: 'right' },
      { prop: 'madeCount', label: t('column.made'), width: 100, align: 'right' },
      { prop: 'ownerName', label: t('column.owner'), width: 140, ellipsis: true },
      { prop: 'deptName', label: t('column.department'), width: 140, ellipsis: true },
      timeColumn<PosterTemplateRow>('updatedAt', t('column.updatedAt'), { width: 170 }),
    ],
    operations: [
      {
        key: 'make',
        label: t('list.make'),
        handler: (row) => navigate(`/poster/editor?id=${row.id}&mode=fill`),
        testId: (row) => `poster-make-${row.name}`,
      },
      {
        key: 'edit',
        label: t('list.edit'),
        notForMonitor: true,
        handler: (row) => navigate(`/poster/editor?id=${row.id}`),
        testId: (row) => `poster-edit-${row.name}`,
      },
      {
        key: 'copy',
        label: t('list.copy'),
        notForMonitor: true,
        handler: (row) => copy.mutateAsync({ id: row.id }),
        testId: (row) => `poster-copy-${row.name}`,
      },
      {
        key: 'history',
        label: t('list.history'),
        handler: (row) => navigate(`/poster/tplHistory?templateId=${row.id}`),
      },
      shareOperation<PosterTemplateRow>({
        prefix: 'poster',
        label: t('list.share'),
        noPermission: t('list.noManage'),
        share: (row) => setSharing(row),
      }),
      {
        key: 'delete',
        label: t('list.delete'),
        danger: true,
        notForMonitor: true,
        disabled: (row) => (row.hasPermission ? false : t('list.noManage')),
        confirm: (row) => ({
          title: t('list.deleteTitle', { name: row.name }),
          description: row.madeCount > 0 ? t('list.deleteMade', { count: row.madeCount }) : undefined,
        }),
        handler: (row) => remove.mutateAsync({ id: row.id }),
        testId: (row) => `poster-delete-${row.name}`,
      },
    ],
  });

  return (
    <ListPage
      list={list}
      testId="poster-page"
      className="mq-poster"
      title={t('title')}
      toolbar={
        <AddButton label={t('list.create')} notForMonitor onClick={() => setCreating(true)} testId="poster-create" />
      }
      empty={t('list.empty')}
      rowTestId={(row) => `poster-row-${row.name}`}
      showTotal={(total) => t('list.total', { count: total })}
    >
      <NewPosterDialog open={creating} onClose={() => setCreating(false)} />
      <PermissionDialog
        open={sharing !== null}
        refType={RefType.poster}
        refIds={sharing ? [sharing.id] : []}
        names={sharing ? [sharing.name] : []}
        onClose={() => setSharing(null)}
        onDone={() => void queryClient.invalidateQueries({ queryKey: domainKey('posters') })}
      />
    </ListPage>
  );
}
