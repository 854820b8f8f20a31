import { ApartmentOutlined, DeleteOutlined, DragOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { type DeptNode, Perm } from '@marquee/protocol';
import { Button, Empty, Popconfirm, Result, Space, Spin, Tag, Tooltip, Tree } from 'antd';
import type { DataNode, TreeProps } from 'antd/es/tree';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { confirmOkProps } from '../../components/ConfirmAction';
import { findDept, useDeptTree } from '../../components/pickers/DeptPicker';
import { useCan } from '../../session/useCan';
import { DEPT_SHOWN_IN, DeptMoveDialog, DeptNameDialog } from './DeptDialogs';

/**
 * The department tree of the caller's enterprise (within their data scope): add, rename,
 * move and delete, each behind the department-management code; delete asks first and the
 * server refuses it while the department has members or sub-departments.
 */
export function DeptPanel({ topLevel }: { topLevel: boolean }) {
  const { t } = useTranslation(['accounts', 'common']);
  const can = useCan();
  const manage = can(Perm.userDeptManage);
  const tree = useDeptTree();
  const [nameDialog, setNameDialog] = useState<{ open: boolean; parent: DeptNode | null; editing: DeptNode | null }>({
    open: false,
    parent: null,
    editing: null,
  });
  const [moving, setMoving] = useState<DeptNode | null>(null);

  // Dragging a department onto another moves it under that one; between nodes, beside it.
  const move = useCallMutation('deptMove', { success: t('toast.deptMoved'), invalidates: DEPT_SHOWN_IN });
  const onDrop: TreeProps['onDrop'] = (info) => {
    const id = String(info.dragNode.key);
    const target = findDept(tree.data ?? [], String(info.node.key));
    if (!target) return;
    const parentId = info.dropToGap ? target.parentId : target.id;
    if (parentId === null && !topLevel) return;
    if (parentId === findDept(tree.data ?? [], id)?.parentId) return;
    move.mutate({ id, parentId });
  };

  const remove = useCallMutation('deptDelete', { success: t('toast.deptDeleted'), invalidates: DEPT_SHOWN_IN });

  const treeData = useMemo(() => {
    const walk = (nodes: readonly DeptNode[]): DataNode[] =>
      nodes.map((n) => ({
        key: n.id,
        title: (
          <span className="mq-dept-node" data-testid={`dept-node-${n.name}`}>
            <span className="mq-dept-name">{n.name}</span>
            {n.memberCount > 0 ? (
              <Tag className="mq-dept-count" bordered={false}>
                {t('dept.members', { count: n.memberCount })}
              </Tag>
            ) : null}
            {manage ? (
              <Space size={0} className="mq-dept-actions" onClick={(e) => e.stopPropagation()}>
                <Tooltip title={t('dept.addChild')}>
                  <Button
                    type="text"
                    size="small"
                    icon={<PlusOutlined />}
                    aria-label={t('dept.addChild')}
                    onClick={() => setNameDialog({ open: true, parent: n, editing: null })}
                    data-testid={`dept-add-${n.name}`}
                  />
                </Tooltip>
                <Tooltip title={t('action.rename')}>
                  <Button
                    type="text"
                    size="small"
                    icon={<EditOutlined />}
                    aria-label={t('action.rename')}
                    onClick={() => setNameDialog({ open: true, parent: null, editing: n })}
                    data-testid={`dept-rename-${n.name}`}
                  />
                </Tooltip>
                <Tooltip title={t('action.move')}>
                  <Button
                    type="text"
                    size="small"
                    icon={<DragOutlined />}
                    aria-label={t('action.move')}
                    onClick={() => setMoving(n)}
                    data-testid={`dept-move-${n.name}`}
                  />
                </Tooltip>
                <Popconfirm
                  title={t('dept.deleteConfirm', { name: n.name })}
                  description={t('dept.deleteHint')}
                  okText={t('action.delete')}
                  cancelText={t('action.cancel')}
                  okButtonProps={confirmOkProps(true)}
                  onConfirm={() => remove.mutateAsync({ id: n.id }).catch(() => undefined)}
                >
                  <Tooltip title={t('action.delete')}>
                    <Button
                      type="text"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('action.delete')}
                      data-testid={`dept-delete-${n.name}`}
                    />
                  </Tooltip>
                </Popconfirm>
              </Space>
            ) : null}
          </span>
        ),
        children: walk(n.children),
      }));
    return walk(tree.data ?? []);
  }, [tree.data, manage, t, remove]);

  if (tree.isLoading) return <Spin className="mq-org-loading" />;
  if (tree.isError) {
    return (
      <Result
        status="warning"
        title={t('loadFailed')}
        extra={<Button onClick={() => tree.refetch()}>{t('action.retry')}</Button>}
      />
    );
  }
  return (
    <div data-testid="dept-panel">
      {manage && topLevel ? (
        <div className="mq-org-toolbar">
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setNameDialog({ open: true, parent: null, editing: null })}
            data-testid="dept-add-root"
          >
            {t('dept.addRoot')}
          </Button>
        </div>
      ) : null}
      {treeData.length === 0 ? (
        <Empty image={<ApartmentOutlined className="mq-org-empty-icon" />} description={t('dept.empty')} />
      ) : (
        <Tree
          className="mq-dept-tree"
          blockNode
          showLine
          defaultExpandAll
          selectable={false}
          draggable={manage && !move.isPending ? { icon: false } : false}
          onDrop={onDrop}
          treeData={treeData}
          // Remounts when departments are added or removed, so new nodes show expanded.
          key={countNodes(tree.data ?? [])}
        />
      )}
      <DeptNameDialog
        open={nameDialog.open}
        parent={nameDialog.parent}
        editing={nameDialog.editing}
        onClose={() => setNameDialog({ open: false, parent: null, editing: null })}
      />
      <DeptMoveDialog dept={moving} allowTopLevel={topLevel} onClose={() => setMoving(null)} />
    </div>
  );
}

function countNodes(nodes: readonly DeptNode[]): number {
  return nodes.reduce((n, d) => n + 1 + countNodes(d.children), 0);
}
