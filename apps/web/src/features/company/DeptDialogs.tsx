import { type DeptNode, departmentNameSchema } from '@marquee/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal, Radio, TreeSelect } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { zodRule } from '../../components/zodRule';
import { deptOptions, invalidateOrg } from './queries';

/** Add a department under `parent` (null: top level) or rename `editing`. */
export function DeptNameDialog({
  open,
  parent,
  editing,
  onClose,
}: {
  open: boolean;
  parent: DeptNode | null;
  editing: DeptNode | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['company', 'validation']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ name: string }>();

  useEffect(() => {
    if (open) form.setFieldsValue({ name: editing?.name ?? '' });
  }, [open, editing, form]);

  const save = useMutation({
    mutationFn: async ({ name }: { name: string }) => {
      if (editing) await call('deptUpdate', { id: editing.id, name: name.trim() });
      else await call('deptAdd', { parentId: parent?.id ?? null, name: name.trim() });
    },
    onSuccess: () => {
      void message.success(t(editing ? 'toast.deptRenamed' : 'toast.deptAdded'));
      void invalidateOrg(queryClient);
      onClose();
    },
  });

  return (
    <Modal
      open={open}
      title={
        editing
          ? t('dept.renameTitle')
          : parent
            ? t('dept.addChildTitle', { name: parent.name })
            : t('dept.addRootTitle')
      }
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('action.save')}
      cancelText={t('action.cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'dept-dialog-submit' } as Record<string, string>}
      cancelButtonProps={{ disabled: save.isPending }}
      maskClosable={false}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(v) => save.mutate(v)} disabled={save.isPending}>
        <Form.Item
          name="name"
          label={t('field.deptName')}
          rules={[{ required: true, message: t('required', { ns: 'validation' }) }, zodRule(departmentNameSchema, t)]}
        >
          <Input maxLength={20} showCount autoFocus data-testid="dept-dialog-name" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Moves a department under another one (not itself or its subtree) or to the top level. */
export function DeptMoveDialog({
  dept,
  tree,
  allowTopLevel,
  onClose,
}: {
  dept: DeptNode | null;
  tree: readonly DeptNode[];
  allowTopLevel: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation(['company', 'validation']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ where: 'under' | 'top'; parentId?: string }>();
  const where = Form.useWatch('where', form);

  useEffect(() => {
    if (dept) form.setFieldsValue({ where: 'under', parentId: dept.parentId ?? undefined });
  }, [dept, form]);

  // The department itself and its subtree cannot be the new parent.
  const options = useMemo(() => deptOptions(tree, (n) => n.id === dept?.id), [tree, dept]);

  const move = useMutation({
    mutationFn: (v: { where: 'under' | 'top'; parentId?: string }) =>
      call('deptMove', { id: dept?.id ?? '', parentId: v.where === 'top' ? null : (v.parentId ?? null) }),
    onSuccess: () => {
      void message.success(t('toast.deptMoved'));
      void invalidateOrg(queryClient);
      onClose();
    },
  });

  return (
    <Modal
      open={dept !== null}
      title={t('dept.moveTitle', { name: dept?.name ?? '' })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('action.move')}
      cancelText={t('action.cancel')}
      confirmLoading={move.isPending}
      okButtonProps={{ 'data-testid': 'dept-move-submit' } as Record<string, string>}
      cancelButtonProps={{ disabled: move.isPending }}
      maskClosable={false}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(v) => move.mutate(v)} disabled={move.isPending}>
        {allowTopLevel ? (
          <Form.Item name="where">
            <Radio.Group
              options={[
                { value: 'under', label: t('dept.moveUnder') },
                { value: 'top', label: t('dept.moveTop') },
              ]}
            />
          </Form.Item>
        ) : null}
        {where !== 'top' ? (
          <Form.Item
            name="parentId"
            label={t('dept.newParent')}
            rules={[{ required: true, message: t('required', { ns: 'validation' }) }]}
          >
            <TreeSelect
              treeData={options}
              treeDefaultExpandAll
              showSearch={{ treeNodeFilterProp: 'title' }}
              placeholder={t('dept.choose')}
              data-testid="dept-move-target"
            />
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}
