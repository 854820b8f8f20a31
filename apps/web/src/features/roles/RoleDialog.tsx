import { DATA_SCOPE_VALUES, endpointDomain, ROLE_TYPES, type RoleRow, roleNameSchema } from '@marquee/protocol';
import { Alert, Button, Form, Input, Radio, Select, Spin, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { DeptPicker } from '../../components/pickers/DeptPicker';
import { requiredRule, zodRule } from '../../components/zodRule';
import { checkedLeaves, codesToSave, indexTree, toggleNode, toUiTree, type UiNode } from './permissionTree';
import './roles.css';

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
  const open = mode !== null;
  const readOnly = mode === 'view';
  const tree = useCallQuery('rolePermissionTree', {}, { enabled: open, staleTime: Number.POSITIVE_INFINITY });
  const uiTree = useMemo(() => toUiTree(tree.data ?? []), [tree.data]);
  const index = useMemo(() => indexTree(uiTree), [uiTree]);
  const [checked, setChecked] = useState<string[]>([]);
  const [treeError, setTreeError] = useState(false);
  const adminRole = isAdminRole(role);
  // Codes the built-in administrator role holds stay checked and locked.
  const locked = useMemo(() => new Set(adminRole ? (role?.permissionCodes ?? []) : []), [adminRole, role]);

  useEffect(() => {
    if (open) setTreeError(false);
  }, [open]);

  useEffect(() => {
    if (open) setChecked(role ? checkedLeaves(role.permissionCodes, index) : []);
  }, [open, role, index]);

  const submit = async (v: Values) => {
    const body = {
      name: v.name.trim(),
      type: v.type,
      deptId: v.deptId ?? null,
      dataScope: v.dataScope,
      permissionCodes: codesToSave(checked, index),
    };
    if (mode === 'edit' && role) await call('roleUpdate', { id: role.id, ...body });
    else await call('roleAdd', body);
  };
  // The tree is not a form field: at least one permission is checked here.
  const canSubmit = () => {
    const ok = codesToSave(checked, index).length > 0;
    if (!ok) setTreeError(true);
    return ok;
  };

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
  return (
    <FormDialog<Values>
      open={open}
      title={title}
      onClose={onClose}
      submit={submit}
      success={t(mode === 'edit' ? 'toast.updated' : 'toast.added')}
      // The role list and options are the role's domain; the accounts list names each account's roles.
      invalidates={[endpointDomain('roleList'), endpointDomain('accountList')]}
      canSubmit={canSubmit}
      values={
        role
          ? { name: role.name, type: role.type as Values['type'], deptId: role.deptId, dataScope: role.dataScope }
          : undefined
      }
      initialValues={{ type: 'custom', dataScope: 'self', deptId: null }}
      okText={t('action.save')}
      cancelText={t('action.cancel')}
      submitTestId="role-save"
      testId="role-dialog"
      width={760}
      readOnly={readOnly}
      footer={readOnly ? <Button onClick={onClose}>{t('action.close')}</Button> : undefined}
    >
      <div className="mq-role-fields">
        <Form.Item name="name" label={t('field.name')} rules={[requiredRule(t), zodRule(roleNameSchema, t)]}>
          <Input maxLength={30} data-testid="role-name-input" />
        </Form.Item>
        <Form.Item name="type" label={t('field.type')}>
          <Select
            // Locked for the administrator role; otherwise the form decides (busy, read only).
            disabled={adminRole || undefined}
            options={ROLE_TYPES.filter((r) => r !== 'admin' || adminRole).map((r) => ({
              value: r,
              label: t(`type.${r}`),
            }))}
            data-testid="role-type-select"
          />
        </Form.Item>
        <Form.Item name="deptId" label={t('field.dept')} tooltip={t('field.deptHint')}>
          <DeptPicker allowClear enabled={open} placeholder={t('field.deptNone')} testId="role-dept-select" />
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
    </FormDialog>
  );
}
