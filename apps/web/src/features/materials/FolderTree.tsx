import { DragOutlined, EditOutlined, FolderOutlined, PlusOutlined } from '@ant-design/icons';
import { MATERIAL_FOLDER_MAX_DEPTH, materialFolderNameSchema } from '@marquee/protocol';
import { App, Button, Empty, Form, Radio, Result, Space, Spin, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { SingleTextField } from '../../components/SingleTextField';
import { requiredRule } from '../../components/zodRule';
import { useFolderTree } from './api';
import { FolderSelect } from './FolderSelect';
import { DeleteAction, IconAction, SideAddButton } from './sideParts';
import type { FolderNode } from './types';

/** The key of the tree's first node: every folder. */
export const ALL_FOLDERS = '__all__';

/** A folder by id anywhere in the tree. */
export function findFolder(tree: readonly FolderNode[], id: string | undefined): FolderNode | undefined {
  if (!id) return undefined;
  for (const n of tree) {
    if (n.id === id) return n;
    const found = findFolder(n.children, id);
    if (found) return found;
  }
  return undefined;
}

export { folderOptions } from './types';

/**
 * The folder tree of the library (spec sections 1, 3 and 5): 'all materials', then the
 * folders; selecting one filters the list. Create (top level or inside a folder, up to
 * MATERIAL_FOLDER_MAX_DEPTH levels: 'too many directory levels'), rename, move and delete (asked first;
 * the server refuses a folder that is not empty). Names follow the spec's folder rule, the
 * same zod rule as the server's.
 */
export function FolderTree({
  selected,
  onSelect,
  canManage,
}: {
  selected: string | undefined;
  onSelect: (id: string | undefined) => void;
  canManage: boolean;
}) {
  const { t } = useTranslation(['material', 'common']);
  const { message } = App.useApp();
  const tree = useFolderTree();
  const [naming, setNaming] = useState<{ parent: FolderNode | null; editing: FolderNode | null } | null>(null);
  const [moving, setMoving] = useState<FolderNode | null>(null);
  const remove = useCallMutation('materialFolderDelete', {
    success: t('toast.folderDeleted'),
    onSuccess: (_a, { id }) => selected === id && onSelect(undefined),
  });

  const addUnder = (parent: FolderNode | null) => {
    if (parent && parent.depth >= MATERIAL_FOLDER_MAX_DEPTH) {
      void message.warning(t('folder.tooDeep'));
      return;
    }
    setNaming({ parent, editing: null });
  };

  const treeData = ((): DataNode[] => {
    const walk = (nodes: readonly FolderNode[]): DataNode[] =>
      nodes.map((n) => ({
        key: n.id,
        title: (
          <span className="mq-folder-node" data-testid={`folder-node-${n.name}`}>
            <FolderOutlined aria-hidden />
            <span className="mq-folder-name">{n.name}</span>
            {n.materialCount > 0 ? <span className="mq-folder-count">{n.materialCount}</span> : null}
            {canManage && n.hasPermission ? (
              <Space size={0} className="mq-folder-actions" onClick={(e) => e.stopPropagation()}>
                <IconAction
                  icon={<PlusOutlined />}
                  label={t('folder.addChild')}
                  onClick={() => addUnder(n)}
                  testId={`folder-add-${n.name}`}
                />
                <IconAction
                  icon={<EditOutlined />}
                  label={t('action.rename')}
                  onClick={() => setNaming({ parent: null, editing: n })}
                  testId={`folder-rename-${n.name}`}
                />
                <IconAction
                  icon={<DragOutlined />}
                  label={t('action.move')}
                  onClick={() => setMoving(n)}
                  testId={`folder-move-${n.name}`}
                />
                <DeleteAction
                  title={t('folder.deleteConfirm', { name: n.name })}
                  description={t('folder.deleteHint')}
                  onConfirm={() => remove.mutateAsync({ id: n.id })}
                  testId={`folder-delete-${n.name}`}
                />
              </Space>
            ) : null}
          </span>
        ),
        children: walk(n.children),
      }));
    return [
      {
        key: ALL_FOLDERS,
        title: (
          <span className="mq-folder-node" data-testid="folder-node-all">
            <FolderOutlined aria-hidden />
            <span className="mq-folder-name">{t('folder.all')}</span>
          </span>
        ),
      },
      ...walk(tree.data ?? []),
    ];
  })();

  let body: React.ReactNode;
  if (tree.isLoading) body = <Spin className="mq-material-loading" />;
  else if (tree.isError)
    body = (
      <Result
        status="warning"
        title={t('loadFailed')}
        extra={<Button onClick={() => tree.refetch()}>{t('action.retry')}</Button>}
      />
    );
  else
    body = (
      <>
        <Tree
          className="mq-folder-tree"
          blockNode
          defaultExpandAll
          selectedKeys={[selected ?? ALL_FOLDERS]}
          onSelect={(keys) => {
            // A click on the chosen folder keeps it chosen (antd would clear it): the upload
            // button needs a folder, and 'all folders' is a node of its own.
            if (keys.length === 0) return;
            const key = String(keys[0]);
            onSelect(key === ALL_FOLDERS ? undefined : key);
          }}
          treeData={treeData}
          key={countFolders(tree.data ?? [])}
        />
        {(tree.data ?? []).length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('folder.empty')} />
        ) : null}
      </>
    );

  return (
    <div data-testid="folder-panel">
      {canManage ? (
        <SideAddButton label={t('folder.addRoot')} onClick={() => addUnder(null)} testId="folder-add-root" />
      ) : null}
      {body}
      <FolderNameDialog
        open={naming !== null}
        parent={naming?.parent ?? null}
        editing={naming?.editing ?? null}
        onClose={() => setNaming(null)}
      />
      <FolderMoveDialog folder={moving} onClose={() => setMoving(null)} />
    </div>
  );
}

function countFolders(nodes: readonly FolderNode[]): number {
  return nodes.reduce((n, f) => n + 1 + countFolders(f.children), 0);
}

/** Create a folder under `parent` (null: top level) or rename `editing`. */
function FolderNameDialog({
  open,
  parent,
  editing,
  onClose,
}: {
  open: boolean;
  parent: FolderNode | null;
  editing: FolderNode | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['material', 'common']);
  const rename = useCallMutation('materialFolderRename');
  const create = useCallMutation('materialFolderCreate');
  const submit = ({ name }: { name: string }) =>
    editing
      ? rename.mutateAsync({ id: editing.id, name: name.trim() })
      : create.mutateAsync({ parentId: parent?.id, name: name.trim() });
  return (
    <FormDialog<{ name: string }>
      open={open}
      title={
        editing
          ? t('folder.renameTitle', { name: editing.name })
          : parent
            ? t('folder.addChildTitle', { name: parent.name })
            : t('folder.addRootTitle')
      }
      onClose={onClose}
      submit={submit}
      success={t(editing ? 'toast.folderRenamed' : 'toast.folderCreated')}
      values={{ name: editing?.name ?? '' }}
      okText={t('action.save')}
      cancelText={t('action.cancel')}
      submitTestId="folder-dialog-submit"
      testId="folder-dialog"
    >
      <SingleTextField label={t('folder.name')} schema={materialFolderNameSchema} testId="folder-dialog-name" />
    </FormDialog>
  );
}

interface MoveValues {
  where: 'under' | 'top';
  parentId?: string;
}

/** Moves a folder into another one (not itself or its subtree) or to the top level. */
function FolderMoveDialog({ folder, onClose }: { folder: FolderNode | null; onClose: () => void }) {
  const { t } = useTranslation(['material', 'common', 'validation']);
  const [form] = Form.useForm<MoveValues>();
  const where = Form.useWatch('where', form);
  const move = useCallMutation('materialFolderMove');
  return (
    <FormDialog<MoveValues>
      open={folder !== null}
      title={t('folder.moveTitle', { name: folder?.name ?? '' })}
      onClose={onClose}
      submit={(v) =>
        move.mutateAsync({ id: folder?.id ?? '', parentId: v.where === 'top' ? null : (v.parentId ?? null) })
      }
      success={t('toast.folderMoved')}
      values={{ where: folder?.parentId ? 'under' : 'top', parentId: folder?.parentId ?? undefined }}
      okText={t('action.move')}
      cancelText={t('action.cancel')}
      submitTestId="folder-move-submit"
      form={form}
    >
      <Form.Item name="where">
        <Radio.Group
          options={[
            { value: 'under', label: t('folder.moveUnder') },
            { value: 'top', label: t('folder.moveTop') },
          ]}
        />
      </Form.Item>
      {where !== 'top' ? (
        <Form.Item name="parentId" label={t('folder.target')} rules={[requiredRule(t)]}>
          <FolderSelect
            exclude={folder?.id}
            showSearch={{ treeNodeFilterProp: 'title' }}
            placeholder={t('folder.choose')}
            testId="folder-move-target"
          />
        </Form.Item>
      ) : null}
    </FormDialog>
  );
}
