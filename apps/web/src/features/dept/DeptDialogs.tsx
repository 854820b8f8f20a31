import { type DeptNode, departmentNameSchema, endpointDomain } from '@marquee/protocol';
import { Form, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { DeptPicker } from '../../components/pickers/DeptPicker';
import { SingleTextField } from '../../components/SingleTextField';
import { requiredRule } from '../../components/zodRule';

/** What a department change refreshes: the tree, and the department names of the accounts and the roles. */
export const DEPT_SHOWN_IN = [endpointDomain('deptTree'), endpointDomain('accountList'), endpointDomain('roleList')];

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
  const { t } = useTranslation(['accounts', 'validation']);
  const submit = async ({ name }: { name: string }) => {
    if (editing) await call('deptUpdate', { id: editing.id, name: name.trim() });
    else await call('deptAdd', { parentId: parent?.id ?? null, name: name.trim() });
  };
  return (
    <FormDialog<{ name: string }>
      open={open}
      title={
        editing
          ? t('dept.renameTitle')
          : parent
            ? t('dept.addChildTitle', { name: parent.name })
            : t('dept.addRootTitle')
      }
      onClose={onClose}
      submit={submit}
      success={t(editing ? 'toast.deptRenamed' : 'toast.deptAdded')}
      invalidates={DEPT_SHOWN_IN}
      values={{ name: editing?.name ?? '' }}
      okText={t('action.save')}
      cancelText={t('action.cancel')}
      submitTestId="dept-dialog-submit"
    >
      <SingleTextField label={t('field.deptName')} schema={departmentNameSchema} testId="dept-dialog-name" />
    </FormDialog>
  );
}

interface MoveValues {
  where: 'under' | 'top';
  parentId?: string;
}

/** Moves a department under another one (not itself or its subtree) or to the top level. */
export function DeptMoveDialog({
  dept,
  allowTopLevel,
  onClose,
}: {
  dept: DeptNode | null;
  allowTopLevel: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation(['accounts', 'validation']);
  const [form] = Form.useForm<MoveValues>();
  const where = Form.useWatch('where', form);

  return (
    <FormDialog<MoveValues>
      open={dept !== null}
      title={t('dept.moveTitle', { name: dept?.name ?? '' })}
      onClose={onClose}
      submit={(v) =>
        call('deptMove', { id: dept?.id ?? '', parentId: v.where === 'top' ? null : (v.parentId ?? null) })
      }
      success={t('toast.deptMoved')}
      invalidates={DEPT_SHOWN_IN}
      values={{ where: 'under', parentId: dept?.parentId ?? undefined }}
      okText={t('action.move')}
      cancelText={t('action.cancel')}
      submitTestId="dept-move-submit"
      form={form}
    >
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
        <Form.Item name="parentId" label={t('dept.newParent')} rules={[requiredRule(t)]}>
          {/* The department itself and its subtree cannot be the new parent. */}
          <DeptPicker disable={(n) => n.id === dept?.id} testId="dept-move-target" />
        </Form.Item>
      ) : null}
    </FormDialog>
  );
}
