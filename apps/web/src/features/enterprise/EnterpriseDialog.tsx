import {
  companyNameSchema,
  contactSchema,
  type EnterpriseRow,
  endpointDomain,
  phoneSchema,
  realNameSchema,
  socialCreditCodeSchema,
} from '@marquee/protocol';
import { Divider, Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { TimeZoneSelect } from '../../components/pickers/TimeZoneSelect';
import { requiredRule, zodRule } from '../../components/zodRule';
import { AccountTypeField, LoginNameField } from '../accounts/AccountFields';
import { PasswordFields } from '../accounts/PasswordFields';

interface Values {
  kind: 'enterprise' | 'agent';
  name: string;
  socialCreditCode: string;
  contact: string;
  phone: string;
  accountType: 'individual' | 'enterprise';
  welcomeSpeech?: string;
  timeZone?: string;
  adminLoginName: string;
  adminRealName: string;
  password: string;
  confirmPassword: string;
}

/**
 * Adds a company or agent company with its administrator account (the platform operator),
 * or edits an enterprise's information (`editing`). Rules are the server's zod rules.
 */
export function EnterpriseDialog({
  open,
  editing,
  allowAgent,
  onClose,
}: {
  open: boolean;
  editing: EnterpriseRow | null;
  /** The caller may create agent companies (platform operator). */
  allowAgent: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation(['accounts', 'validation']);
  const isEdit = editing !== null;

  const submit = async (v: Values) => {
    const fields = {
      name: v.name.trim(),
      socialCreditCode: v.socialCreditCode.trim(),
      contact: v.contact.trim(),
      phone: v.phone.trim(),
      accountType: v.accountType,
    };
    if (editing) {
      await call('enterpriseUpdate', {
        id: editing.id,
        ...fields,
        welcomeSpeech: v.welcomeSpeech?.trim() ?? '',
        ...(v.timeZone ? { timeZone: v.timeZone } : {}),
      });
    } else {
      await call('enterpriseAdd', {
        kind: v.kind,
        ...fields,
        ...(v.timeZone ? { timeZone: v.timeZone } : {}),
        admin: { loginName: v.adminLoginName.trim(), realName: v.adminRealName.trim(), password: v.password },
      });
    }
  };

  const required = requiredRule(t);
  return (
    <FormDialog<Values>
      open={open}
      title={t(isEdit ? 'enterprise.editTitle' : 'enterprise.addTitle')}
      onClose={onClose}
      submit={submit}
      success={t(isEdit ? 'toast.updated' : 'toast.added')}
      invalidates={[endpointDomain('enterpriseList')]}
      values={
        editing
          ? {
              name: editing.name,
              socialCreditCode: editing.socialCreditCode ?? '',
              contact: editing.contact,
              phone: editing.phone,
              accountType: editing.accountType,
              welcomeSpeech: editing.welcomeSpeech,
              timeZone: editing.timeZone,
            }
          : undefined
      }
      initialValues={{ kind: 'enterprise', accountType: 'enterprise' }}
      okText={t('action.save')}
      cancelText={t('action.cancel')}
      submitTestId="company-dialog-submit"
      testId="company-dialog"
      className="mq-form-grid"
      width={760}
    >
      {!isEdit && allowAgent ? (
        <Form.Item name="kind" label={t('field.kind')} className="mq-span">
          <Radio.Group
            options={[
              { value: 'enterprise', label: t('kind.enterprise') },
              { value: 'agent', label: t('kind.agent') },
            ]}
          />
        </Form.Item>
      ) : null}
      <Form.Item name="name" label={t('field.companyName')} rules={[required, zodRule(companyNameSchema, t)]}>
        <Input maxLength={100} data-testid="company-dialog-name" />
      </Form.Item>
      <Form.Item
        name="socialCreditCode"
        label={t('field.socialCreditCode')}
        rules={[required, zodRule(socialCreditCodeSchema, t)]}
      >
        <Input maxLength={18} data-testid="company-dialog-code" />
      </Form.Item>
      <Form.Item name="contact" label={t('field.contact')} rules={[required, zodRule(contactSchema, t)]}>
        <Input data-testid="company-dialog-contact" />
      </Form.Item>
      <Form.Item name="phone" label={t('field.phone')} rules={[required, zodRule(phoneSchema, t)]}>
        <Input data-testid="company-dialog-phone" />
      </Form.Item>
      <AccountTypeField />
      <Form.Item
        name="timeZone"
        label={t('timeZone.label', { ns: 'common' })}
        tooltip={t('timeZone.enterpriseHint', { ns: 'common' })}
      >
        <TimeZoneSelect enabled={open} testId="company-dialog-time-zone" />
      </Form.Item>
      {isEdit ? (
        <Form.Item name="welcomeSpeech" label={t('field.welcomeSpeech')} className="mq-span">
          <Input.TextArea maxLength={200} showCount autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      ) : (
        <>
          <Divider titlePlacement="start" className="mq-span">
            {t('enterprise.adminSection')}
          </Divider>
          <LoginNameField name="adminLoginName" testId="company-dialog-admin-login" />
          <Form.Item name="adminRealName" label={t('field.realName')} rules={[required, zodRule(realNameSchema, t)]}>
            <Input data-testid="company-dialog-admin-name" />
          </Form.Item>
          <PasswordFields testIdPrefix="company-dialog" />
        </>
      )}
    </FormDialog>
  );
}
