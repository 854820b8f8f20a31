import {
  AppstoreOutlined,
  CloudUploadOutlined,
  DeleteOutlined,
  DragOutlined,
  LinkOutlined,
  ShareAltOutlined,
  TableOutlined,
} from '@ant-design/icons';
import { formatSize, formatTime, MATERIAL_TYPES, type MaterialType, Perm, RefType } from '@marquee/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Popconfirm, Segmented, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { domainKey, useCallMutation, useCallQuery } from '../../api/queries';
import { confirmOkProps } from '../../components/ConfirmAction';
import { ListPage, useListPage } from '../../components/listPage';
import { NotForMonitor } from '../../components/MonitorGuard';
import { PermissionDialog } from '../../components/permission-dialog/PermissionDialog';
import type { TableOperation } from '../../components/tableConfig';
import { useCan } from '../../session/useCan';
import { useCategories, useFolderTree } from './api';
import { CategoryList } from './CategoryList';
import { formatDuration } from './checks';
import { FolderTree, findFolder } from './FolderTree';
import { MaterialMoveDialog, MaterialRenameDialog, MediaDialog } from './MaterialDialogs';
import { MaterialGrid, StatusTag, TypeIcon } from './MaterialGrid';
import { PreviewDialog } from './PreviewDialog';
import { StorageUsage } from './StorageUsage';
import type { MaterialRow } from './types';
import { UploadDialog } from './UploadDialog';
import './materials.css';

const MB = 1024 * 1024;
/** Megabytes in the URL, bytes in the request. */
const bytes = (mb: unknown) => (mb ? Math.round(Number(mb) * MB) : undefined);

/**
 * The material library (/advert/material, spec sections 1, 5, 7 and 8): the folder tree and
 * the categories on the left, the storage usage under them; on the right the filters (name,
 * type, category, uploader, date range, size in MB, duplicates only), then the materials of
 * the chosen folder as a grid of thumbnails or as a table, with the list's pagination.
 * Upload (a folder first), add a web page or live stream, preview, rename, move, delete
 * (asked first; the server refuses one in use), share (ref-type '3'; a folder's is '4'), and
 * the same for a selection. Filters and folder live in the URL.
 */
export default function MaterialPage() {
  const { t } = useTranslation(['material', 'common']);
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const can = useCan();
  const canManage = can(Perm.advMaterial);
  const canShare = can(Perm.dataAllocation);
  const folders = useFolderTree();
  const categories = useCategories();
  const accounts = useCallQuery('permissionSubAccounts', {}, { enabled: canShare });
  const [view, setView] = useState<'grid' | 'table'>('grid');
  const [selected, setSelected] = useState<string[]>([]);
  const [previewing, setPreviewing] = useState<MaterialRow | null>(null);
  const [renaming, setRenaming] = useState<MaterialRow | null>(null);
  const [moving, setMoving] = useState<string[] | null>(null);
  const [sharing, setSharing] = useState<{ refType: string; ids: string[]; names: string[] } | null>(null);
  const [uploading, setUploading] = useState(false);
  const [addingMedia, setAddingMedia] = useState(false);

  const remove = useCallMutation('materialDelete', {
    success: (_a, { ids }) => t('toast.deleted', { count: ids.length }),
    onSuccess: (_a, { ids }) => setSelected((s) => s.filter((id) => !ids.includes(id))),
  });
  const confirmDelete = (row: MaterialRow) =>
    modal.confirm({
      title: t('confirm.delete', { name: row.name }),
      content: t('confirm.deleteHint'),
      okText: t('action.delete'),
      cancelText: t('action.cancel'),
      okButtonProps: confirmOkProps(true),
      onOk: () => remove.mutateAsync({ ids: [row.id] }).catch(() => undefined),
    });

  const manage = { authCode: Perm.advMaterial, notForMonitor: true };
  const manageable = (row: MaterialRow) => row.hasPermission;
  const operations: TableOperation<MaterialRow>[] = [
    { key: 'preview', label: t('action.preview'), handler: setPreviewing, testId: (r) => `material-preview-${r.name}` },
    {
      ...manage,
      key: 'rename',
      label: t('action.rename'),
      isShow: manageable,
      handler: setRenaming,
      testId: (r) => `material-rename-${r.name}`,
    },
    {
      ...manage,
      key: 'move',
      label: t('action.move'),
      isShow: manageable,
      handler: (r) => setMoving([r.id]),
      testId: (r) => `material-move-${r.name}`,
    },
    {
      key: 'share',
      label: t('action.share'),
      authCode: Perm.dataAllocation,
      isShow: manageable,
      handler: (r) => setSharing({ refType: RefType.material, ids: [r.id], names: [r.name] }),
      testId: (r) => `material-share-${r.name}`,
    },
    {
      ...manage,
      key: 'delete',
      label: t('action.delete'),
      danger: true,
      isShow: manageable,
      confirm: (r) => ({ title: t('confirm.delete', { name: r.name }), description: t('confirm.deleteHint') }),
      handler: (r) => remove.mutateAsync({ ids: [r.id] }),
      testId: (r) => `material-delete-${r.name}`,
    },
  ];

  const all = t('all');
  const list = useListPage({
    id: 'materials',
    endpoint: 'materialList',
    scope: ['folderId'],
    onFilter: () => setSelected([]),
    filters: [
      { key: 'name', label: t('field.name'), width: 160 },
      {
        key: 'type',
        kind: 'select',
        label: t('field.type'),
        width: 120,
        placeholder: all,
        options: MATERIAL_TYPES.map((type) => ({ value: type, label: t(`type.${type}`) })),
        testId: 'material-filter-type',
      },
      {
        key: 'categoryId',
        kind: 'select',
        label: t('field.category'),
        width: 130,
        placeholder: all,
        loading: categories.isLoading,
        options: categories.data?.map((c) => ({ value: c.id, label: c.name })) ?? [],
        testId: 'material-filter-category',
      },
      {
        key: 'uploaderId',
        kind: 'select',
        label: t('field.uploader'),
        hidden: !canShare,
        showSearch: true,
        width: 140,
        placeholder: all,
        loading: accounts.isLoading,
        options: accounts.data?.map((a) => ({ value: a.id, label: a.name })) ?? [],
        testId: 'material-filter-uploader',
      },
      {
        key: 'range',
        kind: 'range',
        from: 'from',
        to: 'to',
        wholeDays: true,
        label: t('field.createdAt'),
        testId: 'material-filter-range',
      },
      {
        key: 'size',
        kind: 'numberRange',
        from: 'minSize',
        to: 'maxSize',
        label: t('field.sizeMb'),
        placeholders: [t('field.min'), t('field.max')],
      },
      { key: 'duplicates', kind: 'check', label: t('field.duplicatesOnly') },
    ],
    request: (f, { page, size }) => ({
      page,
      size,
      name: f.name as string | undefined,
      type: f.type as MaterialType | undefined,
      folderId: f.folderId as string | undefined,
      categoryId: f.categoryId as string | undefined,
      uploaderId: f.uploaderId as string | undefined,
      from: f.from as string | undefined,
      to: f.to as string | undefined,
      minSize: bytes(f.minSize),
      maxSize: bytes(f.maxSize),
      duplicatesOnly: f.duplicates === '1',
    }),
    // While a material is being processed its thumbnail and duration are on the way.
    refetchInterval: (answer) => (answer?.data.some((r) => r.status === 'processing') ? 3000 : false),
    operationsLabel: t('column.actions'),
    columns: [
      {
        prop: 'name',
        label: t('column.name'),
        width: 260,
        slot: (v: string, row) => (
          <Space size={6} className="mq-material-cell-name">
            <TypeIcon row={row} />
            <span>{v}</span>
          </Space>
        ),
      },
      { prop: 'type', label: t('column.type'), width: 100, slot: (v: string) => t(`type.${v}`) },
      {
        prop: 'size',
        label: t('column.size'),
        width: 110,
        align: 'right',
        slot: (v: number, row) => (row.type === 'web' || row.type === 'stream' ? '-' : formatSize(v)),
      },
      {
        prop: 'width',
        label: t('column.resolution'),
        width: 120,
        slot: (_v: number, row) => (row.width && row.height ? `${row.width}×${row.height}` : '-'),
      },
      { prop: 'duration', label: t('column.duration'), width: 100, slot: (v: number) => formatDuration(v) || '-' },
      { prop: 'folderName', label: t('column.folder'), width: 140, ellipsis: true },
      { prop: 'categoryName', label: t('column.category'), width: 120, ellipsis: true, show: false },
      { prop: 'uploaderName', label: t('column.uploader'), width: 120, ellipsis: true },
      {
        prop: 'status',
        label: t('column.status'),
        width: 140,
        slot: (_v: string, row) =>
          row.status === 'processing' || row.status === 'invalid' ? <StatusTag row={row} /> : t('status.ready'),
      },
      { prop: 'createdAt', label: t('column.createdAt'), width: 170, slot: (v: string) => formatTime(v) },
    ],
    operations,
  });
  const { filters } = list.state;
  const rows = list.query.data?.data ?? [];
  const currentFolder = findFolder(folders.data ?? [], filters.folderId);
  const emptyText = list.filtered ? t('emptyFiltered') : t('empty');

  const startUpload = () => {
    // Spec section 5: a folder must be chosen before upload.
    if (!filters.folderId) {
      void message.warning(t('upload.chooseFolder'));
      return;
    }
    setUploading(true);
  };

  const selectedNames = rows.filter((r) => selected.includes(r.id)).map((r) => r.name);
  const none = selected.length === 0;
  const toolbar = (
    <Space wrap>
      {canManage ? (
        <NotForMonitor>
          <Space wrap>
            <Button type="primary" icon={<CloudUploadOutlined />} onClick={startUpload} data-testid="material-upload">
              {t('action.upload')}
            </Button>
            <Button icon={<LinkOutlined />} onClick={() => setAddingMedia(true)} data-testid="material-add-media">
              {t('action.addMedia')}
            </Button>
            <Button
              icon={<DragOutlined />}
              disabled={none}
              onClick={() => setMoving(selected)}
              data-testid="material-move-selected"
            >
              {t('action.moveSelected', { count: selected.length })}
            </Button>
            <Popconfirm
              title={t('confirm.deleteSelected', { count: selected.length })}
              description={t('confirm.deleteHint')}
              okText={t('action.delete')}
              cancelText={t('action.cancel')}
              okButtonProps={confirmOkProps(true)}
              disabled={none}
              onConfirm={() => remove.mutateAsync({ ids: selected }).catch(() => undefined)}
            >
              <Button danger icon={<DeleteOutlined />} disabled={none} data-testid="material-delete-selected">
                {t('action.deleteSelected', { count: selected.length })}
              </Button>
            </Popconfirm>
          </Space>
        </NotForMonitor>
      ) : null}
      {canShare ? (
        <>
          <Button
            icon={<ShareAltOutlined />}
            disabled={none}
            onClick={() => setSharing({ refType: RefType.material, ids: selected, names: selectedNames })}
            data-testid="material-share-selected"
          >
            {t('action.shareSelected', { count: selected.length })}
          </Button>
          {currentFolder ? (
            <Button
              icon={<ShareAltOutlined />}
              onClick={() =>
                setSharing({ refType: RefType.materialFolder, ids: [currentFolder.id], names: [currentFolder.name] })
              }
              data-testid="folder-share"
            >
              {t('action.shareFolder')}
            </Button>
          ) : null}
        </>
      ) : null}
    </Space>
  );

  /** A card's buttons: the row operations but preview (a click on the card previews). */
  const gridActions = (row: MaterialRow) => (
    <Space size={0}>
      {operations
        .filter((op) => op.key !== 'preview' && (!op.authCode || can(op.authCode)) && (!op.isShow || op.isShow(row)))
        .map((op) => (
          <Button
            key={op.key}
            type="link"
            size="small"
            danger={op.danger}
            onClick={() => (op.confirm ? confirmDelete(row) : void op.handler(row))}
            data-testid={op.testId?.(row)}
          >
            {op.label}
          </Button>
        ))}
    </Space>
  );
  const pageSelected = rows.length > 0 && rows.every((r) => selected.includes(r.id));

  return (
    <ListPage
      list={list}
      testPrefix="material"
      className="mq-materials"
      side={
        <>
          <Card size="small" title={t('folder.title')} className="mq-material-side-card">
            <FolderTree
              selected={filters.folderId}
              onSelect={(id) => list.refine({ folderId: id })}
              canManage={canManage}
            />
          </Card>
          <Card size="small" title={t('category.title')} className="mq-material-side-card">
            <CategoryList
              canManage={canManage}
              selected={filters.categoryId}
              onSelect={(id) => list.refine({ categoryId: id })}
            />
          </Card>
          <Card size="small" title={t('usage.title')} className="mq-material-side-card">
            <StorageUsage />
          </Card>
        </>
      }
      title={<span data-testid="material-folder-title">{currentFolder ? currentFolder.name : t('folder.all')}</span>}
      extra={
        <Segmented
          value={view}
          onChange={(v) => setView(v as 'grid' | 'table')}
          options={[
            { value: 'grid', icon: <AppstoreOutlined />, label: t('view.grid') },
            { value: 'table', icon: <TableOutlined />, label: t('view.table') },
          ]}
          data-testid="material-view"
        />
      }
      toolbar={toolbar}
      rowSelection={{
        selectedRowKeys: selected,
        onChange: (keys) => setSelected(keys.map(String)),
        getCheckboxProps: (row) => ({ disabled: !manageable(row), 'aria-label': row.name }) as object,
      }}
      onRow={(row) => ({
        tabIndex: 0,
        onDoubleClick: () => setPreviewing(row),
        onKeyDown: (e) => {
          if (e.target !== e.currentTarget) return;
          if (e.key === 'Enter') setPreviewing(row);
          else if (e.key === 'Delete' && canManage && manageable(row)) confirmDelete(row);
        },
      })}
      rowTestId={(row) => `material-row-${row.name}`}
      empty={emptyText}
      failed={{ description: t('loadFailed'), retryLabel: t('action.retry') }}
      showTotal={(total, capped) => t(capped ? 'totalCapped' : 'total', { count: total })}
      body={
        view === 'grid' ? (
          <MaterialGrid
            rows={rows}
            loading={list.query.isFetching}
            empty={list.query.isError ? t('loadFailed') : emptyText}
            selected={selected}
            onToggle={(id, on) => setSelected((s) => (on ? [...s, id] : s.filter((x) => x !== id)))}
            onOpen={setPreviewing}
            onDelete={canManage ? (row) => manageable(row) && confirmDelete(row) : undefined}
            actions={gridActions}
          />
        ) : undefined
      }
      bodyTools={
        rows.length > 0 ? (
          <Checkbox
            checked={pageSelected}
            indeterminate={!pageSelected && rows.some((r) => selected.includes(r.id))}
            onChange={(e) => setSelected(e.target.checked ? rows.filter(manageable).map((r) => r.id) : [])}
            data-testid="material-select-all"
          >
            {t('selectPage')}
          </Checkbox>
        ) : null
      }
    >
      <PreviewDialog row={previewing} onClose={() => setPreviewing(null)} />
      <MaterialRenameDialog row={renaming} onClose={() => setRenaming(null)} />
      <MaterialMoveDialog
        ids={moving}
        onClose={() => setMoving(null)}
        onDone={() => {
          setMoving(null);
          setSelected([]);
        }}
      />
      <MediaDialog open={addingMedia} folderId={filters.folderId} onClose={() => setAddingMedia(false)} />
      <UploadDialog open={uploading} folderId={filters.folderId} onClose={() => setUploading(false)} />
      <PermissionDialog
        open={sharing !== null}
        refType={sharing?.refType ?? RefType.material}
        refIds={sharing?.ids ?? []}
        names={sharing?.names ?? []}
        onClose={() => setSharing(null)}
        onDone={() => {
          setSelected([]);
          // who may manage a material changed: its rows' permissions with it
          void queryClient.invalidateQueries({ queryKey: domainKey('materials') });
        }}
      />
    </ListPage>
  );
}
