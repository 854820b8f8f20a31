import { formatTime, Perm, type SpliceRow } from '@marquee/protocol';
import { Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { AddButton } from '../../components/AddButton';
import { editDeleteOperations } from '../../components/editDeleteOperations';
import { ListPage, useListPage } from '../../components/listPage';
import { SpliceDialog } from './SpliceDialog';

/**
 * Splicing screens (/device/splicDevice): video walls of rows x columns of devices within the
 * caller's data scope; add, edit (the grid editor) and delete. A wall is one target for
 * content once ads and layouts exist.
 */
export default function SplicePage() {
  const { t } = useTranslation('splice');
  const [dialog, setDialog] = useState<{ open: boolean; id: string | null }>({ open: false, id: null });

  const remove = useCallMutation('spliceDelete', { success: t('toast.deleted') });

  const manage = { authCode: Perm.deviceSplice, notForMonitor: true };
  const list = useListPage({
    id: 'splice',
    endpoint: 'spliceList',
    filters: [{ key: 'keyword', label: t('field.name'), testId: 'splice-filter-name' }],
    operationsLabel: t('actions'),
    columns: [
      { prop: 'name', label: t('field.name'), width: 200, ellipsis: true },
      {
        prop: 'rows',
        label: t('field.grid'),
        width: 110,
        slot: (_v: number, row) => t('grid.size', { rows: row.rows, cols: row.cols }),
      },
      {
        prop: 'tileCount',
        label: t('field.tileCount'),
        width: 120,
        slot: (v: number, row) => t('grid.filled', { placed: v, total: row.rows * row.cols }),
      },
      { prop: 'onlineCount', label: t('field.online'), width: 110, showThousands: true },
      {
        prop: 'scaling',
        label: t('field.scaling'),
        width: 110,
        slot: (v: boolean) => <Tag color={v ? 'processing' : 'default'}>{t(v ? 'scaling.on' : 'scaling.off')}</Tag>,
      },
      { prop: 'rotation', label: t('field.rotation'), width: 100, slot: (v: number) => t('rotation', { deg: v }) },
      { prop: 'deptName', label: t('field.dept'), width: 140, ellipsis: true },
      { prop: 'updatedAt', label: t('field.updatedAt'), width: 170, slot: (v: string) => formatTime(v) },
    ],
    operations: editDeleteOperations<SpliceRow>({
      prefix: 'splice',
      shared: manage,
      edit: (row) => setDialog({ open: true, id: row.id }),
      remove: remove.mutateAsync,
      editLabel: t('edit'),
      deleteLabel: t('delete'),
      confirm: (row) => ({ title: t('confirm.delete', { name: row.name }) }),
    }),
  });

  return (
    <ListPage
      list={list}
      className="mq-splice"
      title={t('title')}
      toolbar={
        <AddButton
          label={t('add')}
          notForMonitor
          onClick={() => setDialog({ open: true, id: null })}
          testId="splice-add"
        />
      }
      rowTestId={(row) => `splice-row-${row.name}`}
      empty={t('empty')}
      showTotal={(total) => t('total', { count: total })}
    >
      <SpliceDialog
        open={dialog.open}
        editingId={dialog.id}
        onClose={() => setDialog({ open: false, id: dialog.id })}
      />
    </ListPage>
  );
}
