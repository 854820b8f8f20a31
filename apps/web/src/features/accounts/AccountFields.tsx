import { loginAccountSchema } from '@marquee/protocol';
import { Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { requiredRule, zodRule } from '../../components/zodRule';

/**
 * Fields every account form shares (accounts, a company's administrator, advertisers): the
 * login account with its rule and hint and the account type (the department and role pickers
 * are components/pickers').
 */
export function LoginNameField({ name = 'loginName', testId }: { name?: string; testId: string }) {
  const { t } = useTranslation(['accounts', 'validation']);
  return (
    <Form.Item
      name={name}
      label={t('field.loginName')}
      rules={[requiredRule(t), zodRule(loginAccountSchema, t)]}
      extra={t('field.loginNameHint')}
    >
      <Input autoComplete="off" data-testid={testId} />
    </Form.Item>
  );
}

export function AccountTypeField() {
  const { t } = useTranslation('accounts');
  return (
    <Form.Item name="accountType" label={t('field.accountType')}>
      <Radio.Group
        options={[
          { value: 'enterprise', label: t('accountType.enterprise') },
          { value: 'individual', label: t('accountType.individual') },
        ]}
      />
    </Form.Item>
  );
}
