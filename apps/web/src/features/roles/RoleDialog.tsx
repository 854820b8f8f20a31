import { DATA_SCOPE_VALUES, ROLE_TYPES, type RoleRow, roleNameSchema } from '@marquee/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal, Radio, Select, Spin, Tree, TreeSelect } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { zodRule } from '../../components/zodRule';
import { deptOptions, invalidateOrg, ORG_KEY, useDeptTree } from '../company/queries';
import { checkedLeaves, codesToSave, indexTree, toggleNode, toUiTree, type UiNode } from './permissionTree';

export type RoleDialogMode = 'add' | 'edit' | 'view';

interface Values {
  name: string;
  type: (typeof ROLE_TYPES)[number];
  deptId?: string | null;
  dataScope: (typeof DATA_SCOPE_VALUES)[number];
}

/** The built-in enterprise administrator role: its codes cannot be removed. */
export const isAdminRole = (role: RoleRow | null) => Boolean(role?.builtin && role.type === 'admin');

/**
 * Adds, edits or shows a role: name, type, department, data scope and the menu-permission
 * tree of the catalogue (sections, pages, actions) as checkboxes.
 */
export function RoleDialog({
  mode,
  role,
  onClose,
}: {
  mode: RoleDialogMode | null;
  role: RoleRow | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['roles', 'menu', 'validation']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const open = mode !== null;
  const readOnly = mode === 'view';
  const tree = useQuery({
    queryKey: [ORG_KEY, 'permissionTree'],
    queryFn: ({ signal }) => call('rolePermissionTree', {}, { signal }),
    enabled: open,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const depts = useDeptTree(open);
  const deptData = useMemo(() => deptOptions(depts.data ?? []), [depts.data]);
  const uiTree = useMemo(() => toUiTree(tree.data ?? []), [tree.data]);
  const index = useMemo(() => indexTree(uiTree), [uiTree]);
  const [checked, setChecked] = useState<string[]>([]);
  const [treeError, setTreeError] = useState(false);
  const adminRole = isAdminRole(role);
  // Codes the built-in administrator role holds stay checked and locked.
  const locked = useMemo(() => new Set(adminRole ? (role?.permissionCodes ?? []) : []), [adminRole, role]);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setTreeError(false);
    if (role) {
      form.setFieldsValue({
        name: role.name,
        type: role.type as Values['type'],
        deptId: role.deptId,
        dataScope: role.dataScope,
      });
    }
  }, [open, role, form]);

  useEffect(() => {
    if (open) setChecked(role ? checkedLeaves(role.permissionCodes, index) : []);
  }, [open, role, index]);

  const save = useMutation({
    mutationFn: async (v: Values) => {
      const body = {
        name: v.name.trim(),
        type: v.type,
        deptId: v.deptId ?? null,
        dataScope: v.dataScope,
        permissionCodes: codesToSave(checked, index),
      };
      if (mode === 'edit' && role) await call('roleUpdate', { id: role.id, ...body });
      else await call('roleAdd', body);
    },
    onSuccess: () => {
      void message.success(t(mode === 'edit' ? 'toast.updated' : 'toast.added'));
      void invalidateOrg(queryClient);
      onClose();
    },
  });

  const label = (title: string) => {
    const [ns, key] = title.includes(':') ? title.split(/:(.*)/s) : ['roles', title];
    return t(key, { ns, defaultValue: key.replace(/^perm\./, '') });
  };
  const walk = (nodes: UiNode[]): DataNode[] =>
    nodes.map((n) => ({
      key: n.key,
      title: (
        // Clicking the title toggles the node like its checkbox (bigger target, keyboard via the checkbox).
        <span
          data-testid={`perm-node-${n.key.replace(/^#/, 'group-')}`}
          onClick={() => {
            if (readOnly) return;
            const next = toggleNode(checked, n.key, index);
            setChecked([...new Set([...next, ...[...locked].filter((c) => index.leaves.has(c))])]);
          }}
        >
          {label(n.title)}
        </span>
      ),
      children: walk(n.children),
    }));
  const treeData = walk(uiTree);

  const title = mode === 'add' ? t('dialog.addTitle') : mode === 'edit' ? t('dialog.editTitle') : t('dialog.viewTitle');
  const busy = save.isPending;
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      width={760}
      maskClosable={false}
      destroyOnHidden
      footer={
        readOnly ? (
          <Button onClick={onClose}>{t('action.close')}</Button>
        ) : (
          <>
            <Button onClick={onClose} disabled={busy}>
              {t('action.cancel')}
            </Button>
            <Button type="primary" loading={busy} onClick={() => form.submit()} data-testid="role-save">
              {t('action.save')}
            </Button>
          </>
        )
      }
    >
      <Form
        form={form}
        layout="vertical"
        disabled={busy || readOnly}
        onFinish={(v) => {
          if (codesToSave(checked, index).length === 0) {
            setTreeError(true);
            return;
          }
          save.mutate(v);
        }}
        initialValues={{ type: 'custom', dataScope: 'self', deptId: null }}
        data-testid="role-dialog"
      >
        <div className="mq-role-fields">
          <Form.Item
            name="name"
            label={t('field.name')}
            rules={[{ required: true, message: t('required', { ns: 'validation' }) }, zodRule(roleNameSchema, t)]}
          >
            <Input maxLength={30} data-testid="role-name-input" />
          </Form.Item>
          <Form.Item name="type" label={t('field.type')}>
            <Select
              disabled={adminRole || readOnly || busy}
              options={ROLE_TYPES.filter((r) => r !== 'admin' || adminRole).map((r) => ({
                value: r,
                label: t(`type.${r}`),
              }))}
              data-testid="role-type-select"
            />
          </Form.Item>
          <Form.Item name="deptId" label={t('field.dept')} tooltip={t('field.deptHint')}>
            <TreeSelect
              allowClear
              treeData={deptData}
              treeDefaultExpandAll
              showSearch={{ treeNodeFilterProp: 'title' }}
              placeholder={t('field.deptNone')}
              data-testid="role-dept-select"
            />
          </Form.Item>
        </div>
        <Form.Item name="dataScope" label={t('field.dataScope')}>
          <Radio.Group>
            {DATA_SCOPE_VALUES.map((s) => (
              <Radio key={s} value={s} data-testid={`role-scope-${s}`}>
                {t(`scope.${s}`)}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item label={t('field.permissions')} required={!readOnly}>
          {adminRole && !readOnly ? (
            <Alert type="info" showIcon title={t('dialog.adminLocked')} style={{ marginBottom: 8 }} />
          ) : null}
          {tree.isLoading ? (
            <Spin />
          ) : tree.isError ? (
            <Alert type="error" title={t('dialog.treeFailed')} />
          ) : (
            <div className="mq-perm-tree" data-testid="perm-tree">
              <Tree
                checkable
                // Tree-level disabled keeps parents' checked state (a node-level disableCheckbox would not).
                disabled={readOnly}
                selectable={false}
                defaultExpandAll
                checkedKeys={checked}
                onCheck={(keys) => {
                  const list = (Array.isArray(keys) ? keys : keys.checked).map(String);
                  const leaves = list.filter((k) => index.leaves.has(k));
                  setChecked([...new Set([...leaves, ...[...locked].filter((c) => index.leaves.has(c))])]);
                  setTreeError(false);
                }}
                treeData={treeData}
              />
            </div>
          )}
          {treeError ? <div className="ant-form-item-explain-error">{t('dialog.pickOne')}</div> : null}
        </Form.Item>
      </Form>
    </Modal>
  );
}
